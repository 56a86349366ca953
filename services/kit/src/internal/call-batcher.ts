/** How one call may grow: by count, and by size (the callee's body limit). */
export interface CallBatcherLimits<I> {
  /** The most items one call carries. */
  maxItems: number;
  /** The most bytes (by `sizeOf`) one call carries; a single larger item still goes, alone. */
  maxBytes?: number;
  sizeOf?: (item: I) => number;
}

interface Waiting<I, O> {
  item: I;
  size: number;
  resolve(result: O): void;
  reject(error: unknown): void;
}

/**
 * Group commit, and its twin for reads: one `send` call at a time. An item added while none is in
 * flight goes at once,
 * alone (no timer, so a quiet server adds no delay); items added while one is in flight wait,
 * and all of them (up to the limits) go as the next call as soon as it returns. Under load, each
 * call so carries what arrived during the previous one, and the cost per item (an HTTP request,
 * a statement, a commit) is shared.
 *
 * `send` answers one result per item, in the items' order; each caller gets its own. A failed call
 * rejects every caller in it with that call's error, as each would have failed alone. Items are
 * sent in the order they were added, so calls commit in that order too.
 */
export class CallBatcher<I, O> {
  private readonly waiting: Waiting<I, O>[] = [];
  private inFlight = false;

  constructor(
    private readonly send: (items: I[]) => Promise<readonly O[]>,
    private readonly limits: CallBatcherLimits<I>,
  ) {}

  /** Resolves with the item's own result once the call that carried it returned. */
  add(item: I): Promise<O> {
    const size = this.limits.sizeOf?.(item) ?? 0;
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, size, resolve, reject });
      if (!this.inFlight) this.sendNext();
    });
  }

  /** Items waiting for the call in flight to return. */
  get queued(): number {
    return this.waiting.length;
  }

  private sendNext(): void {
    const batch = this.take();
    this.inFlight = batch.length > 0;
    if (this.inFlight) void this.deliver(batch);
  }

  /** The oldest waiting items that fit in one call (always at least one). */
  private take(): Waiting<I, O>[] {
    const { maxItems, maxBytes = Infinity } = this.limits;
    let count = 0;
    let bytes = 0;
    for (const { size } of this.waiting) {
      if (count === maxItems || (count > 0 && bytes + size > maxBytes)) break;
      count += 1;
      bytes += size;
    }
    return this.waiting.splice(0, count);
  }

  /** Never rejects: the outcome goes to the callers. */
  private async deliver(batch: Waiting<I, O>[]): Promise<void> {
    let results: readonly O[] | undefined;
    let failure: unknown;
    try {
      results = await this.send(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length)
        throw new Error(`a call of ${batch.length} items answered ${results.length} results`);
    } catch (error) {
      results = undefined;
      failure = error;
    }
    // The next call leaves before these callers go on (broadcasts, acknowledgements): its round
    // trip overlaps their work. It commits after this one, so the order holds.
    this.sendNext();
    batch.forEach((waiting, i) => (results ? waiting.resolve(results[i]!) : waiting.reject(failure)));
  }
}
