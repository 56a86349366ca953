export type Timer = ReturnType<typeof setTimeout>;

/** The call's timers: each acts only while the call is open, and closing the call clears them. */
export class CallTimers {
  private readonly timers = new Set<Timer>();

  constructor(private readonly closed: () => boolean) {}

  later(delay: number, action: () => void | Promise<void>): Timer {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed()) void action();
    }, delay);
    this.timers.add(timer);
    return timer;
  }

  cancel(timer: Timer): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  /** A timer that ends with the call it belongs to (`owned`: that call's timers). */
  after(owned: Set<Timer>, delay: number, action: () => void): Timer {
    const timer = setTimeout(() => {
      owned.delete(timer);
      if (!this.closed()) action();
    }, delay);
    owned.add(timer);
    return timer;
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
