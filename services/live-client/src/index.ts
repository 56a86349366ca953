/**
 * `@uis/live-client`: the live session's socket client, React-free and zod-free (values come from
 * `@uis/proto/browser` only), for the browser and for realtime's tests and benchmarks.
 */
export * from './live-connection';
export * from './server-clock';
export * from './exposure-outbox';
