import { backoffDelay, mailJobId } from './mail-queue';
import { MemorySentMarkerStore } from './sent-marker.store';

describe('mailJobId', () => {
  it('is the request id itself when BullMQ accepts it', () => {
    expect(mailJobId('5b0c8f0e-1c1e-4c8e-9a55-2f1f4a9e2d10')).toBe('5b0c8f0e-1c1e-4c8e-9a55-2f1f4a9e2d10');
  });

  it('is a stable digest for ids BullMQ refuses (integers, colons)', () => {
    expect(mailJobId('42')).toMatch(/^req-[0-9a-f]{64}$/);
    expect(mailJobId('a:b')).toBe(mailJobId('a:b'));
    expect(mailJobId('a:b')).not.toBe(mailJobId('a:c'));
  });
});

describe('backoffDelay', () => {
  it('doubles from the base delay, like BullMQ exponential backoff', () => {
    expect([1, 2, 3, 4].map((attempts) => backoffDelay(2000, attempts))).toEqual([2000, 4000, 8000, 16000]);
  });
});

describe('MemorySentMarkerStore', () => {
  it('remembers a request for seven days', async () => {
    let now = 0;
    const store = new MemorySentMarkerStore(() => now);
    await store.mark('r1');
    expect(await store.get('r1')).toBe('sent');
    expect(await store.get('r2')).toBeUndefined();
    now = 7 * 24 * 60 * 60 * 1000;
    expect(await store.get('r1')).toBeUndefined();
  });

  it('forgets a hand-over, never a sent mail', async () => {
    const store = new MemorySentMarkerStore();
    await store.handedOver('r1');
    expect(await store.get('r1')).toBe('handed-over');
    await store.forget('r1');
    expect(await store.get('r1')).toBeUndefined();
    await store.mark('r2');
    await store.forget('r2');
    expect(await store.get('r2')).toBe('sent');
  });
});
