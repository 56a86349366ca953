import { defineService, serviceEnv } from '@uis/kit';

export const realtimeEnv = serviceEnv;

/** socket.io on :9000 (path /socket.io/). Until the live-session protocol lands it answers /health and /ready only. */
export const realtimeService = defineService({ name: 'realtime', env: realtimeEnv, imports: () => [] });
