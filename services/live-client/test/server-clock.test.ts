import { ServerClock } from '../src/server-clock';

describe('ServerClock', () => {
  it('takes the offset of the sample with the lowest round trip', () => {
    const clock = new ServerClock();
    expect(clock.synced).toBe(false);
    // Server 1000 ms ahead; the first answer spent 200 ms more on the way back than out.
    clock.sample(0, 1150, 300);
    clock.sample(1000, 2020, 1040);
    expect(clock.synced).toBe(true);
    expect(clock.roundTripMs).toBe(40);
    expect(clock.now() - (performance.timeOrigin + performance.now())).toBeCloseTo(1000, 0);
  });

  it('follows a clock that changes: old samples leave the window', () => {
    const clock = new ServerClock();
    clock.sample(0, 505, 10); // offset 500, the best round trip ever
    for (let i = 1; i <= 8; i++) clock.sample(i * 1000, i * 1000 + 2_000 + 15, i * 1000 + 30); // offset 2000
    expect(clock.roundTripMs).toBe(30);
    expect(clock.now() - (performance.timeOrigin + performance.now())).toBeCloseTo(2000, 0);
  });
});
