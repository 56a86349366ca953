import { LiveStack } from './support/live-stack';
import { pause } from './support/recording-connection';
import { RedisServer } from './support/processes';
import { runRedisOutage } from './support/redis-outage';

/**
 * Redis stops for 5 s during traffic (a redis-server of the test's own: the shared one on 6379 is
 * never touched) and comes back empty. The adapter realtime uses (README: why the streams adapter)
 * delivers every message once Redis is back, so every list converges without a resync.
 */
describe('Redis stopped for 5 s during traffic', () => {
  let stack: LiveStack;
  let redis: RedisServer;

  beforeAll(async () => {
    [stack, redis] = await Promise.all([LiveStack.start('redis_outage'), RedisServer.start()]);
  });

  afterAll(async () => {
    await redis?.stop();
    await stack?.close();
  });

  it('loses nothing: every client ends with the complete list', async () => {
    const result = await runRedisOutage(stack.sessionHost(), redis, {
      adapter: 'streams',
      outage: 'kill',
      clients: 10,
      outageMs: 5000,
      sendEveryMs: 400,
      settleMs: 10_000,
      // Not ready without Redis (a load balancer stops sending new clients), still serving the old ones.
      duringOutage: async ([url]) => {
        await pause(500);
        const ready = await fetch(`${url}/ready`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { res: { message: string } }).res.message).toMatch(/redis/);
        expect((await fetch(`${url}/health`)).status).toBe(200);
      },
    });
    expect(result.stored.length).toBeGreaterThan(100);
    expect(result.acknowledgedNotStored).toEqual([]);
    expect(result.refused).toEqual([]);
    expect({
      lost: result.lostDeliveries,
      converged: result.convergedClients,
      reconnects: result.reconnects,
    }).toEqual({
      lost: 0,
      converged: 10,
      reconnects: 0,
    });
    console.info(
      `redis outage: ${result.stored.length} messages, ${result.expectedCrossReplica} cross-replica deliveries, none lost`,
    );
  }, 60_000);
});
