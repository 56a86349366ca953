/**
 * `@uis/realtime/testing`: the part of realtime's test harness that scripts/bench/realtime runs too
 * (the Redis outage scenario behind the adapter choice, on a redis-server of its own).
 */
export { RedisServer } from './processes';
export { runRedisOutage, type OutageOptions, type OutageResult, type SessionHost } from './redis-outage';
