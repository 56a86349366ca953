import { CallBatcher } from '../src/internal/call-batcher';

/** A `send` whose calls the test answers by hand, in any order it likes. */
function manualSend<I>() {
  const calls: { items: I[]; answer(results: string[]): void; fail(error: unknown): void }[] = [];
  const send = (items: I[]) =>
    new Promise<string[]>((resolve, reject) => calls.push({ items, answer: resolve, fail: reject }));
  /** Answers call `n` with one result per item: `stored:<item>`. */
  const answer = (n: number) => calls[n]!.answer(calls[n]!.items.map((item) => `stored:${String(item)}`));
  return { calls, send, answer };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CallBatcher', () => {
  it('sends an item alone at once when nothing is in flight, and again after a quiet spell', async () => {
    const { calls, send, answer } = manualSend<string>();
    const batcher = new CallBatcher(send, { maxItems: 200 });
    const first = batcher.add('a');
    // Synchronously: no timer, no tick waited for.
    expect(calls.map((c) => c.items)).toEqual([['a']]);
    answer(0);
    await expect(first).resolves.toBe('stored:a');
    await settle();
    const second = batcher.add('b');
    expect(calls.map((c) => c.items)).toEqual([['a'], ['b']]);
    answer(1);
    await expect(second).resolves.toBe('stored:b');
    expect(batcher.queued).toBe(0);
  });

  it('groups what arrives while a call is in flight into the next call, in order, each caller getting its own result', async () => {
    const { calls, send, answer } = manualSend<string>();
    const batcher = new CallBatcher(send, { maxItems: 200 });
    const results: Promise<string>[] = [batcher.add('m0')];
    for (let i = 1; i < 6; i += 1) results.push(batcher.add(`m${i}`));
    expect(calls.map((c) => c.items)).toEqual([['m0']]);
    expect(batcher.queued).toBe(5);

    answer(0);
    await settle();
    // While the second call is in flight, more arrive: they make the third.
    results.push(batcher.add('m6'), batcher.add('m7'));
    expect(calls.map((c) => c.items)).toEqual([['m0'], ['m1', 'm2', 'm3', 'm4', 'm5']]);
    answer(1);
    await settle();
    expect(calls.map((c) => c.items)).toEqual([['m0'], ['m1', 'm2', 'm3', 'm4', 'm5'], ['m6', 'm7']]);
    answer(2);
    expect(await Promise.all(results)).toEqual(Array.from({ length: 8 }, (_, i) => `stored:m${i}`));
  });

  it('keeps one call in flight at a time: the next leaves only when the previous returned', async () => {
    let inFlight = 0;
    let most = 0;
    const sizes: number[] = [];
    const batcher = new CallBatcher(
      async (items: number[]) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        sizes.push(items.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return items.map((n) => n * 10);
      },
      { maxItems: 200 },
    );
    // 100 concurrent callers, arriving over a few milliseconds.
    const results = await Promise.all(
      Array.from({ length: 100 }, async (_, n) => {
        await new Promise((resolve) => setTimeout(resolve, n % 10));
        return batcher.add(n);
      }),
    );
    expect(results).toEqual(Array.from({ length: 100 }, (_, n) => n * 10));
    expect(most).toBe(1);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
    // Far fewer calls than items.
    expect(sizes.length).toBeLessThan(10);
  });

  it('caps a call at maxItems; the rest go in the following calls, order kept', async () => {
    const { calls, send, answer } = manualSend<number>();
    const batcher = new CallBatcher(send, { maxItems: 3 });
    const results = Array.from({ length: 8 }, (_, n) => batcher.add(n));
    for (let n = 0; n < 4; n += 1) {
      answer(n);
      await settle();
    }
    expect(calls.map((c) => c.items)).toEqual([[0], [1, 2, 3], [4, 5, 6], [7]]);
    expect(await Promise.all(results)).toEqual(Array.from({ length: 8 }, (_, n) => `stored:${n}`));
  });

  it('caps a call at maxBytes, but always sends at least one item, however large', async () => {
    const { calls, send, answer } = manualSend<string>();
    const batcher = new CallBatcher(send, { maxItems: 200, maxBytes: 10, sizeOf: (item) => item.length });
    const results = ['first', 'aaaa', 'bbbb', 'cc', 'a-very-long-item', 'dd'].map((item) =>
      batcher.add(item),
    );
    for (let n = 0; n < 4; n += 1) {
      answer(n);
      await settle();
    }
    expect(calls.map((c) => c.items)).toEqual([
      ['first'],
      ['aaaa', 'bbbb', 'cc'],
      ['a-very-long-item'],
      ['dd'],
    ]);
    await expect(Promise.all(results)).resolves.toHaveLength(6);
  });

  it('rejects every caller of a failed call with its error, and goes on with the next call', async () => {
    const { calls, send, answer } = manualSend<string>();
    const batcher = new CallBatcher(send, { maxItems: 200 });
    const first = batcher.add('a');
    const grouped = [batcher.add('b'), batcher.add('c'), batcher.add('d')];
    answer(0);
    await expect(first).resolves.toBe('stored:a');
    await settle();
    expect(calls[1]!.items).toEqual(['b', 'c', 'd']);
    const unavailable = new Error('records did not answer');
    calls[1]!.fail(unavailable);
    for (const result of grouped) await expect(result).rejects.toBe(unavailable);
    // Nothing is left waiting, and the next item goes at once.
    const next = batcher.add('e');
    expect(calls.map((c) => c.items)).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    answer(2);
    await expect(next).resolves.toBe('stored:e');
  });

  it('rejects every caller when an answer does not hold one result per item', async () => {
    const batcher = new CallBatcher((items: string[]) => Promise.resolve(items.slice(1)), {
      maxItems: 200,
    });
    await expect(batcher.add('only')).rejects.toThrow('a call of 1 items answered 0 results');
  });

  it('a send that throws at once rejects its callers too, and the batcher keeps working', async () => {
    let broken = true;
    const batcher = new CallBatcher(
      (items: string[]) => {
        if (broken) throw new Error('no connection');
        return Promise.resolve(items.map((item) => item.toUpperCase()));
      },
      { maxItems: 200 },
    );
    await expect(batcher.add('x')).rejects.toThrow('no connection');
    broken = false;
    await expect(batcher.add('y')).resolves.toBe('Y');
  });
});
