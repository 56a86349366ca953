/**
 * An in-process map whose entries expire `ttlMs` after they were set. Expired entries read as
 * missing; once the map holds more than `sweepAbove` entries, a set sweeps the expired ones, so it
 * never grows with keys that are no longer used.
 */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly sweepAbove = 10_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, now = Date.now()): void {
    this.entries.set(key, { value, until: now + this.ttlMs });
    if (this.entries.size > this.sweepAbove) this.sweep(now);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every entry whose key `matches` (a scan of the whole map: for rare events). */
  deleteMatching(matches: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
  }
}
