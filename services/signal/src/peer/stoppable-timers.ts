type TimeoutFn = typeof setTimeout;

/**
 * Makes endless timer loops of code that offers no way to stop them stoppable. The `peer` package
 * starts two setTimeout loops when it is mounted (broken-connection check every 300 ms, queued
 * message expiry every second) and has no close(): they would keep a stopped service's process,
 * and every test that composes the services, alive for ever.
 *
 * `run(fn)` calls fn with setTimeout swapped for one whose timers are unref'd (they never hold the
 * process open) and whose callbacks run inside `run` again, so a loop that re-arms itself stays
 * followed. After `stop()` pending callbacks are skipped, which ends every loop at its next tick.
 * The swap lasts only while fn runs synchronously, so other code's timers are left alone (apart
 * from those the followed code starts through it, e.g. ws's close timer when a stale peer is dropped).
 */
export class StoppableTimers {
  private stopped = false;
  private readonly realSetTimeout: TimeoutFn;

  constructor(private readonly host: { setTimeout: TimeoutFn } = globalThis) {
    this.realSetTimeout = host.setTimeout;
  }

  run<T>(fn: () => T): T {
    if (this.host.setTimeout === this.followed) return fn();
    const previous = this.host.setTimeout;
    this.host.setTimeout = this.followed;
    try {
      return fn();
    } finally {
      this.host.setTimeout = previous;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  private readonly followed = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = this.realSetTimeout(() => {
      if (!this.stopped) this.run(() => callback(...args));
    }, ms);
    return timer.unref();
  }) as TimeoutFn;
}
