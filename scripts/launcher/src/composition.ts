import { authService } from '@uis/auth';
import { contentService } from '@uis/content';
import type { ServiceDefinition } from '@uis/kit';
import { mailerService } from '@uis/mailer';
import type { ServiceName } from '@uis/proto';
import { realtimeService } from '@uis/realtime';
import { recordsService } from '@uis/records';
import { signalService } from '@uis/signal';
import { studiesService } from '@uis/studies';

/**
 * The services `npm start` composes into one process, in start order (the mailer before auth, which
 * queues mail for it); they stop in reverse.
 */
export const COMPOSED_SERVICES: readonly ServiceDefinition[] = [
  mailerService,
  authService,
  studiesService,
  contentService,
  recordsService,
  realtimeService,
  signalService,
];

/**
 * Services that listen on a port of their own (socket.io and PeerJS need their own server), with the
 * variable that moves it; their default is their port in proto's SERVICES. The REST services are
 * reached through the API dispatcher, and the mailer has no HTTP clients.
 */
export const OWN_PORTS: Partial<Record<ServiceName, { envName: string; usualHolder?: string }>> = {
  realtime: { envName: 'REALTIME_PORT', usualHolder: 'is another `npm start` running, or MinIO?' },
  signal: { envName: 'SIGNAL_PORT' },
};
