export * from './realtime.service-definition';
export { REDIS_ADAPTERS, type RealtimeConfig, type RedisAdapterKind } from './realtime.config';
export { RealtimeGateway } from './live-session/realtime.gateway';
export type { LiveServer } from './live-session/live-socket';
