/** Every deployable service, with the port it listens on when it runs alone. */
export const SERVICES = {
  auth: { port: 3001 },
  studies: { port: 3002 },
  content: { port: 3003 },
  records: { port: 3004 },
  mailer: { port: 3005 },
  realtime: { port: 9000 },
  signal: { port: 9001 },
} as const;

export type ServiceName = keyof typeof SERVICES;

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/**
 * The services that answer REST calls (realtime and mailer do not; signal answers only /getCallSettings,
 * besides PeerJS on its own port).
 */
export type RestServiceName = Extract<ServiceName, 'auth' | 'studies' | 'content' | 'records' | 'signal'>;

/** Port of the public API (gateway, or the embedded process). */
export const API_PORT = 8443;
