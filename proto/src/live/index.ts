/**
 * `@uis/proto/live`: the live session's client (socket, and later the call), React-free and
 * zod-free, for the browser and for realtime's tests and benchmarks. Not part of proto's index:
 * services never bundle a client.
 */
export * from './live-connection';
export * from './server-clock';
