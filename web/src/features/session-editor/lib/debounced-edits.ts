/**
 * The edit sender of the session editor (spec sections 4 and 5: edits are sent debounced by 1 s).
 * Keystrokes queue fields; after `delayMs` without a new one, the fields whose value differs from
 * what the server holds are sent together in one call. Nothing changed means nothing is sent, so
 * the server never sees an empty edit. Plain class with timers, so it is tested without React.
 */
export type Fields = Record<string, unknown>;

/** Same value as far as the server is concerned: text that differs only by outer spaces is trimmed there. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim() === b.trim();
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return Object.is(a, b);
}

/** The fields of `pending` whose value is not already `baseline`'s. */
export function changedFields<T extends Fields>(pending: Partial<T>, baseline: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(pending) as (keyof T)[]) {
    if (!sameValue(pending[key], baseline[key])) changed[key] = pending[key];
  }
  return changed;
}

/**
 * The form's values after the server's answer came in: fields being edited keep what the user typed,
 * fields equal to the server's keep the user's spelling (a trailing space the server would trim),
 * every other field takes the server's value (a type change cleared the source, a refetch after a
 * failure).
 */
export function mergeServer<T extends Fields>(draft: T, server: T, editing: ReadonlySet<keyof T>): T {
  const merged = { ...draft };
  for (const key of Object.keys(server) as (keyof T)[]) {
    if (editing.has(key) || sameValue(draft[key], server[key])) continue;
    merged[key] = server[key];
  }
  return merged;
}

export interface DebouncedEditsOptions<T extends Fields> {
  delayMs: number;
  /** Sends a non-empty patch; rejects when the server refused it. */
  send: (patch: Partial<T>) => Promise<unknown>;
  /** Told about every refused patch (after the refused values stop counting as saved). */
  onError?: (patch: Partial<T>, error: unknown) => void;
  onSaved?: (patch: Partial<T>) => void;
}

export class DebouncedEdits<T extends Fields> {
  private pending: Partial<T> = {};
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** What the server holds, as far as this sender knows: sent values count as held until refused. */
    private baseline: T,
    private readonly options: DebouncedEditsOptions<T>,
  ) {}

  /** The server's latest values (a fetch or refetch answered). */
  setBaseline(baseline: T): void {
    this.baseline = baseline;
  }

  /** Queues fields and restarts the pause. */
  queue(patch: Partial<T>): void {
    Object.assign(this.pending, patch);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.options.delayMs);
  }

  /** Forgets queued values of these fields (an invalid value, or one the server derives itself). */
  drop(fields: readonly (keyof T)[]): void {
    for (const field of fields) delete this.pending[field];
    if (Object.keys(this.pending).length === 0) this.cancel();
  }

  /** Fields waiting for the pause to end. */
  editing(): ReadonlySet<keyof T> {
    return new Set(Object.keys(this.pending) as (keyof T)[]);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Sends what changed now, without waiting for the pause (a type change, leaving the page). */
  async flush(): Promise<void> {
    this.cancel();
    const patch = changedFields(this.pending, this.baseline);
    this.pending = {};
    const keys = Object.keys(patch) as (keyof T)[];
    if (keys.length === 0) return;
    const before = { ...this.baseline };
    this.baseline = { ...this.baseline, ...patch };
    try {
      await this.options.send(patch);
      this.options.onSaved?.(patch);
    } catch (error) {
      // The refused values are not held by the server: typing them again must be sent again.
      for (const key of keys) if (sameValue(this.baseline[key], patch[key])) this.baseline[key] = before[key];
      this.options.onError?.(patch, error);
    }
  }
}
