import { TEST_REDIS_URL, randomSuffix } from '@uis/kit/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { EMPTY_ROOM, MemoryRoomState, RedisRoomState, type RoomStateStore } from './room-state';

const redis = new Redis(TEST_REDIS_URL);
const prefix = `uis-test:${randomSuffix()}`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** The same contract for both stores: what one replica writes, the next read sees. */
describe.each([
  ['in memory', (ttlMs?: number) => new MemoryRoomState(ttlMs)],
  ['in Redis', (ttlMs?: number) => new RedisRoomState(redis, prefix, ttlMs)],
] as Array<[string, (ttlMs?: number) => RoomStateStore]>)('room state %s', (_, create) => {
  it('starts empty: clicks not allowed, no status, no peer', async () => {
    expect(await create().read(randomUUID())).toEqual(EMPTY_ROOM);
  });

  it('marks a prompt fired once per session, whoever asks again', async () => {
    const rooms = create();
    const [one, two] = [randomUUID(), randomUUID()];
    expect(await rooms.markPromptFired(one, 'p1')).toBe(true);
    expect(await rooms.markPromptFired(one, 'p1')).toBe(false);
    expect(await rooms.markPromptFired(one, 'p2')).toBe(true);
    expect(await rooms.markPromptFired(two, 'p1')).toBe(true); // sessions do not mix
  });

  it('changes the given fields and keeps the others', async () => {
    const rooms = create();
    const sessionId = randomUUID();
    const videoStatus = { paused: false, currentTime: 12.5, playbackRate: 1.5, at: 1_700_000_000_000 };
    await rooms.update(sessionId, { allowClicks: true });
    await rooms.update(sessionId, { videoStatus, researcherPeerId: 'peer-1' });
    await rooms.update(sessionId, { allowClicks: false });
    expect(await rooms.read(sessionId)).toEqual({
      allowClicks: false,
      videoStatus,
      researcherPeerId: 'peer-1',
    });
    await rooms.update(sessionId, { researcherPeerId: null, videoStatus: null });
    expect(await rooms.read(sessionId)).toEqual(EMPTY_ROOM);
    expect(await rooms.read(randomUUID())).toEqual(EMPTY_ROOM); // rooms do not mix
  });

  it('resets a room at the end of a run: everything forgotten, other rooms kept', async () => {
    const rooms = create();
    const [sessionId, other] = [randomUUID(), randomUUID()];
    const videoStatus = { paused: true, currentTime: 3, playbackRate: 1, at: 1_700_000_000_000 };
    for (const id of [sessionId, other]) {
      await rooms.update(id, { allowClicks: true, videoStatus, researcherPeerId: 'peer-1' });
      await rooms.markPromptFired(id, 'p1');
    }
    await rooms.reset(sessionId);
    expect(await rooms.read(sessionId)).toEqual(EMPTY_ROOM);
    expect(await rooms.markPromptFired(sessionId, 'p1')).toBe(true);
    expect(await rooms.read(other)).toEqual({ allowClicks: true, videoStatus, researcherPeerId: 'peer-1' });
    expect(await rooms.markPromptFired(other, 'p1')).toBe(false);
    await rooms.reset(randomUUID()); // a room never used: nothing to do
  });

  it('forgets a room a while after its last change', async () => {
    const rooms = create(100);
    const sessionId = randomUUID();
    await rooms.update(sessionId, { allowClicks: true });
    expect((await rooms.read(sessionId)).allowClicks).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await rooms.read(sessionId)).toEqual(EMPTY_ROOM);
  });
});

it('reads a field it cannot parse as unset instead of failing the room', async () => {
  const sessionId = randomUUID();
  await redis.hset(`${prefix}:room:${sessionId}`, { allowClicks: '1', videoStatus: '{"paused":"maybe"}' });
  expect(await new RedisRoomState(redis, prefix).read(sessionId)).toEqual({
    ...EMPTY_ROOM,
    allowClicks: true,
  });
  await redis.hset(`${prefix}:room:${sessionId}`, { videoStatus: 'not json' });
  expect((await new RedisRoomState(redis, prefix).read(sessionId)).videoStatus).toBeNull();
});
