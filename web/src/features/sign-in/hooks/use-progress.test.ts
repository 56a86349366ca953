import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useProgress } from './use-progress';

/** A task the test settles by hand. */
function deferred() {
  let resolve!: (value: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useProgress', () => {
  beforeEach(() => vi.useFakeTimers());

  it('rises 15 every 500 ms from 0, capped at 99, then 100 on completion and idle 200 ms later', async () => {
    const { result } = renderHook(() => useProgress());
    expect(result.current.percent).toBeNull();

    const task = deferred();
    let tracked!: Promise<string>;
    act(() => {
      tracked = result.current.track(() => task.promise);
    });
    expect(result.current.percent).toBe(0);

    // [just before the step, at the step] for nine steps: nothing moves between steps.
    const steps: (number | null)[][] = [];
    for (let step = 0; step < 9; step++) {
      act(() => {
        vi.advanceTimersByTime(499);
      });
      const before = result.current.percent;
      act(() => {
        vi.advanceTimersByTime(1);
      });
      steps.push([before, result.current.percent]);
    }
    expect(steps).toEqual([
      [0, 15],
      [15, 30],
      [30, 45],
      [45, 60],
      [60, 75],
      [75, 90],
      [90, 99],
      [99, 99],
      [99, 99],
    ]);

    await act(async () => {
      task.resolve('sent');
      await expect(tracked).resolves.toBe('sent');
    });
    expect(result.current.percent).toBe(100);

    act(() => {
      vi.advanceTimersByTime(199);
    });
    expect(result.current.percent).toBe(100);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current.percent).toBeNull();

    // Idle for good: no timer keeps running.
    act(() => {
      vi.advanceTimersByTime(5_000);
    });
    expect(result.current.percent).toBeNull();
  });

  it('also completes to 100 and idles when the task fails, passing the failure on', async () => {
    const { result } = renderHook(() => useProgress());
    const task = deferred();
    let tracked!: Promise<string>;
    act(() => {
      tracked = result.current.track(() => task.promise);
    });
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(result.current.percent).toBe(30);

    await act(async () => {
      task.reject(new Error('no mail'));
      await expect(tracked).rejects.toThrow('no mail');
    });
    expect(result.current.percent).toBe(100);
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(result.current.percent).toBeNull();
  });

  it('starts again from 0 when a new task begins during the 200 ms after the last one', async () => {
    const { result } = renderHook(() => useProgress());
    await act(() => result.current.track(() => Promise.resolve('first')));
    expect(result.current.percent).toBe(100);

    const task = deferred();
    act(() => {
      void result.current.track(() => task.promise);
    });
    expect(result.current.percent).toBe(0);
    // The first task's idle timer was cancelled: the second stays busy past 200 ms.
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(result.current.percent).toBe(15);
    await act(async () => {
      task.resolve('second');
      await task.promise;
    });
    expect(result.current.percent).toBe(100);
  });
});
