/** The check's link (PATHS.deviceCheck), with the spec's leading colon; here, not in routes.ts, to keep the login chunk small. */
export const deviceCheckPath = (sessionId: string): string => `/check/:${sessionId}`;
