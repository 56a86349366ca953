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

/** The services that answer REST calls of the spec (realtime, signal and mailer do not). */
export type RestServiceName = Extract<ServiceName, 'auth' | 'studies' | 'content' | 'records'>;

/** Port of the public API (gateway, or the embedded process). */
export const API_PORT = 8443;
