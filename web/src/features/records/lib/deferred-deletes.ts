/**
 * Deletions held back for a while so the researcher can take them back (a message's Undo). A held
 * deletion is sent when its time is up, when the researcher closes its toast, or when the page is
 * left; until it is answered its record stays hidden. Holding back the call rather than restoring a
 * deleted record afterwards keeps the server, its audit log and other readers out of it: nothing was
 * deleted unless it is sent. A plain class with timers (tested without React), exposed to React by
 * `subscribe` and `hidden` (useSyncExternalStore).
 */
export class DeferredDeletes {
  private readonly waiting = new Map<
    string,
    { timer: ReturnType<typeof setTimeout>; send: () => Promise<unknown> }
  >();
  /** Sent and not answered yet: still hidden, so the record does not flash back before the refetch. */
  private readonly sending = new Set<string>();
  private shown: ReadonlySet<string> = new Set();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly delayMs: number) {}

  /** Hides the record `id` now and sends `send` after the delay, unless undone first. */
  hold(id: string, send: () => Promise<unknown>): void {
    if (this.waiting.has(id) || this.sending.has(id)) return;
    const timer = setTimeout(() => void this.sendNow(id), this.delayMs);
    this.waiting.set(id, { timer, send });
    this.changed();
  }

  /** Takes a held deletion back; false when it was already sent (or never held). */
  undo(id: string): boolean {
    const held = this.waiting.get(id);
    if (!held) return false;
    clearTimeout(held.timer);
    this.waiting.delete(id);
    this.changed();
    return true;
  }

  /** Sends a held deletion at once; the record shows again if the call fails. */
  async sendNow(id: string): Promise<void> {
    const held = this.waiting.get(id);
    if (!held) return;
    clearTimeout(held.timer);
    this.waiting.delete(id);
    this.sending.add(id);
    try {
      await held.send();
    } catch {
      // The sender reports its own failure (the mutation's toast).
    } finally {
      this.sending.delete(id);
      this.changed();
    }
  }

  /** Sends every held deletion (the page is being left). */
  sendAll(): void {
    for (const id of [...this.waiting.keys()]) void this.sendNow(id);
  }

  /** The records to hide: held or on their way. The same object until something changes. */
  hidden = (): ReadonlySet<string> => this.shown;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    this.shown = new Set([...this.waiting.keys(), ...this.sending]);
    for (const listener of this.listeners) listener();
  }
}
