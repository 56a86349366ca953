import { defineService, serviceEnv } from '@uis/kit';

export const signalEnv = serviceEnv;

/** PeerJS on :9001 (path /stream). Until the signalling issue lands it answers /health and /ready only. */
export const signalService = defineService({ name: 'signal', env: signalEnv, imports: () => [] });
