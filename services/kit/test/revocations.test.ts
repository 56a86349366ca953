import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { REVOCATIONS_KEY, Revocations, createLogger, type Revocation } from '../src';
import { TEST_REDIS_URL, waitFor } from '../src/testing';

const logger = createLogger({ service: 'auth', level: 'silent' });
const tokenOf = (loginId: string, id = randomUUID(), issuedAt = Date.now()) => ({
  user: { id, loginId, email: 'who@uni.test', name: 'Who', type: 'participant' as const },
  issuedAt,
});

/** Revocations shared by processes through the real Redis: what one revokes, all refuse at once. */
describe('revocations through Redis', () => {
  const opened: Revocations[] = [];
  const open = () => {
    const revocations = Revocations.shared(TEST_REDIS_URL, logger);
    opened.push(revocations);
    return revocations;
  };
  afterAll(async () => {
    await Promise.all(opened.map((revocations) => revocations.close()));
  });

  it('reaches every process at once, and tells their listeners', async () => {
    const [auth, realtime] = [open(), open()];
    const heard: Revocation[] = [];
    realtime.onRevoked((revocation) => heard.push(revocation));
    const login = randomUUID();
    // The subscriber must be listening before the publish for the message route to be the one tested.
    await waitFor(async () => (await pubsubListeners()) >= 2, 'the subscribers');
    await auth.revoke({ kind: 'login', id: login });
    expect(auth.isRevoked(tokenOf(login))).toBe(true);
    await waitFor(() => realtime.isRevoked(tokenOf(login)), 'the other process to hear it');
    expect(heard).toContainEqual({ kind: 'login', id: login });
    expect(realtime.isRevoked(tokenOf(randomUUID()))).toBe(false);
  });

  it('is known to a process that starts after the revocation', async () => {
    const user = randomUUID();
    const issuedBefore = Date.now();
    await open().revoke({ kind: 'user', id: user, issuedBefore });
    const late = open();
    await waitFor(
      () => late.isRevoked(tokenOf(randomUUID(), user, issuedBefore - 1)),
      'the late process to load it',
    );
    expect(late.isRevoked(tokenOf(randomUUID(), user, issuedBefore + 1))).toBe(false);
  });

  it('keeps a revocation only as long as an access token can live', async () => {
    const id = randomUUID();
    await open().revoke({ kind: 'login', id });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const score = Number(await redis.zscore(REVOCATIONS_KEY, `login:${id}`));
      expect(score - Date.now()).toBeGreaterThan(23 * 3600_000);
      expect(score - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    } finally {
      redis.disconnect();
    }
  });
});

describe('revocations without Redis', () => {
  it('are one copy for the whole process (npm start composes every service in one)', async () => {
    const login = randomUUID();
    await Revocations.inProcess().revoke({ kind: 'login', id: login });
    expect(Revocations.inProcess().isRevoked(tokenOf(login))).toBe(true);
  });
});

async function pubsubListeners(): Promise<number> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const [, count] = (await redis.call('PUBSUB', 'NUMSUB', REVOCATIONS_KEY)) as [string, number];
    return count;
  } finally {
    redis.disconnect();
  }
}
