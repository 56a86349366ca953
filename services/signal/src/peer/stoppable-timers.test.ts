import { StoppableTimers } from './stoppable-timers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loop like peer's: a callback that re-arms itself through the global setTimeout, no way to stop it. */
function startLoop(everyMs: number) {
  const loop = { ticks: 0, timers: [] as NodeJS.Timeout[] };
  const arm = () => {
    loop.timers.push(
      setTimeout(() => {
        loop.ticks++;
        arm();
      }, everyMs),
    );
  };
  arm();
  return loop;
}

describe('StoppableTimers', () => {
  it('follows a self-re-arming loop into its callbacks and ends it on stop', async () => {
    const timers = new StoppableTimers();
    const loop = timers.run(() => startLoop(5));
    await sleep(60);
    expect(loop.ticks).toBeGreaterThan(2);
    // Every timer of the loop, the re-armed ones included, leaves the process free to exit.
    expect(loop.timers.every((timer) => !timer.hasRef())).toBe(true);

    timers.stop();
    const ticksAtStop = loop.ticks;
    await sleep(40);
    expect(loop.ticks).toBeLessThanOrEqual(ticksAtStop + 1);
    const ticksAfter = loop.ticks;
    await sleep(40);
    expect(loop.ticks).toBe(ticksAfter);
  });

  it('passes arguments and the delay through', async () => {
    const timers = new StoppableTimers();
    const seen: unknown[] = [];
    const started = Date.now();
    timers.run(() =>
      setTimeout((a: unknown, b: unknown) => seen.push(a, b, Date.now() - started), 30, 'a', 2),
    );
    await sleep(60);
    expect(seen.slice(0, 2)).toEqual(['a', 2]);
    expect(seen[2]).toBeGreaterThanOrEqual(25);
  });

  it('leaves timers started outside run alone', () => {
    const timers = new StoppableTimers();
    timers.run(() => undefined);
    const outside = setTimeout(() => undefined, 1000);
    expect(outside.hasRef()).toBe(true);
    expect(setTimeout).toBe(globalThis.setTimeout);
    clearTimeout(outside);
  });

  it('restores setTimeout even when the followed code throws', () => {
    const original = globalThis.setTimeout;
    const timers = new StoppableTimers();
    expect(() =>
      timers.run(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(globalThis.setTimeout).toBe(original);
  });
});
