import { DEBOUNCE_MS } from '../../../config/ui-constants';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DebouncedEdits, changedFields, mergeServer, sameValue } from './debounced-edits';

interface Info extends Record<string, unknown> {
  title: string;
  track: string;
  scope: string | string[];
}
const server: Info = { title: 'Pilot', track: '', scope: 'Everyone' };

function sender(send = vi.fn((_patch: Partial<Info>) => Promise.resolve())) {
  const onError = vi.fn();
  const edits = new DebouncedEdits<Info>(server, { delayMs: DEBOUNCE_MS, send, onError });
  return { edits, send, onError };
}

describe('DebouncedEdits', () => {
  beforeEach(() => vi.useFakeTimers());

  it('sends nothing until 1000 ms have passed since the last change', async () => {
    const { edits, send } = sender();
    edits.queue({ title: 'P' });
    await vi.advanceTimersByTimeAsync(999);
    edits.queue({ title: 'Pi' });
    await vi.advanceTimersByTimeAsync(999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ title: 'Pi' });
  });

  it('coalesces the fields edited within one pause into one call', async () => {
    const { edits, send } = sender();
    edits.queue({ title: 'Study 1' });
    edits.queue({ track: 'A' });
    edits.queue({ scope: ['ann@example.com'] });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(send.mock.calls).toEqual([[{ title: 'Study 1', track: 'A', scope: ['ann@example.com'] }]]);
  });

  it('sends only the fields that differ from the server, and never an empty edit', async () => {
    const { edits, send } = sender();
    edits.queue({ title: 'Pilot ', track: 'B' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(send.mock.calls).toEqual([[{ track: 'B' }]]);

    edits.queue({ title: 'Other' });
    edits.queue({ title: 'Pilot', scope: 'Everyone' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('counts a sent value as saved, so typing it again sends nothing', async () => {
    const { edits, send } = sender();
    edits.queue({ track: 'B' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    edits.queue({ track: 'B' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('forgets a refused value, reports it, and sends it again when typed again', async () => {
    const refusal = new Error('source: must be an http(s) URL');
    const send = vi.fn((_patch: Partial<Info>) => Promise.reject(refusal));
    const { edits, onError } = sender(send);
    edits.queue({ track: 'x' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(onError).toHaveBeenCalledWith({ track: 'x' }, refusal);
    edits.queue({ track: 'x' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('flush sends at once; drop keeps a field out', async () => {
    const { edits, send } = sender();
    edits.queue({ title: '', track: 'C' });
    edits.drop(['title']);
    expect([...edits.editing()]).toEqual(['track']);
    await edits.flush();
    expect(send.mock.calls).toEqual([[{ track: 'C' }]]);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('compares with the latest server values', async () => {
    const { edits, send } = sender();
    edits.setBaseline({ ...server, track: 'D' });
    edits.queue({ track: 'D' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(send).not.toHaveBeenCalled();
  });
});

describe('edit helpers', () => {
  it('sameValue trims text and compares lists by content', () => {
    expect(sameValue(' a ', 'a')).toBe(true);
    expect(sameValue(['a'], ['a'])).toBe(true);
    expect(sameValue(['a'], 'a')).toBe(false);
    expect(sameValue(0, 0)).toBe(true);
  });

  it('changedFields keeps only differing fields', () => {
    expect(changedFields({ title: 'Pilot', track: 'x' }, server)).toEqual({ track: 'x' });
  });

  it('mergeServer keeps fields being edited and takes the server value elsewhere', () => {
    const draft: Info = { title: 'Pilot ', track: 'typing', scope: ['a@b.c'] };
    const next: Info = { title: 'Pilot', track: 'old', scope: 'Everyone' };
    expect(mergeServer(draft, next, new Set<keyof Info>(['track']))).toEqual({
      title: 'Pilot ',
      track: 'typing',
      scope: 'Everyone',
    });
  });
});
