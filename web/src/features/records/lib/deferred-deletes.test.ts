import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeferredDeletes } from './deferred-deletes';

describe('DeferredDeletes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hides a record at once and sends its deletion only when the delay is up', async () => {
    const deletes = new DeferredDeletes(10_000);
    const send = vi.fn(() => Promise.resolve());
    const heard = vi.fn();
    deletes.subscribe(heard);
    deletes.hold('m1', send);
    expect(deletes.hidden()).toEqual(new Set(['m1']));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledOnce();
    expect(deletes.hidden()).toEqual(new Set());
    expect(heard).toHaveBeenCalled();
  });

  it('undo takes it back: nothing is sent and the record shows again', async () => {
    const deletes = new DeferredDeletes(10_000);
    const send = vi.fn(() => Promise.resolve());
    deletes.hold('m1', send);
    expect(deletes.undo('m1')).toBe(true);
    expect(deletes.hidden()).toEqual(new Set());
    await vi.advanceTimersByTimeAsync(20_000);
    expect(send).not.toHaveBeenCalled();
    expect(deletes.undo('m1')).toBe(false);
  });

  it('keeps the record hidden while its deletion is on its way, and cannot undo it then', async () => {
    const deletes = new DeferredDeletes(10_000);
    let answer: () => void = () => undefined;
    const send = vi.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    deletes.hold('m1', send);
    const sent = deletes.sendNow('m1');
    expect(send).toHaveBeenCalledOnce();
    expect(deletes.hidden()).toEqual(new Set(['m1']));
    expect(deletes.undo('m1')).toBe(false);
    answer();
    await sent;
    expect(deletes.hidden()).toEqual(new Set());
    await vi.advanceTimersByTimeAsync(20_000);
    expect(send).toHaveBeenCalledOnce();
  });

  it('shows the record again when the deletion fails', async () => {
    const deletes = new DeferredDeletes(10_000);
    deletes.hold('m1', () => Promise.reject(new Error('Error deleting message')));
    await deletes.sendNow('m1');
    expect(deletes.hidden()).toEqual(new Set());
  });

  it('sends every held deletion when the page is left, each once', async () => {
    const deletes = new DeferredDeletes(10_000);
    const send = vi.fn(() => Promise.resolve());
    deletes.hold('m1', send);
    deletes.hold('m2', send);
    deletes.hold('m1', send);
    deletes.sendAll();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(send).toHaveBeenCalledTimes(2);
  });
});
