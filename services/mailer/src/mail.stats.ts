/**
 * What this process did with mail, counted in one place: the worker and the in-process queue count
 * here, log lines carry `totals`, and a metrics exporter can read `snapshot()`.
 */
export interface MailTotals {
  /** Mails the server accepted. */
  sent: number;
  /** Jobs skipped because their request was already sent (or handed over) by an earlier attempt. */
  alreadySent: number;
  /** Failed attempts that will be tried again (temporary errors: 4xx, connection problems). */
  retried: number;
  /** Mails given up: refused for good (5xx, bad payload) or out of attempts. */
  failed: number;
}

export class MailStats {
  private readonly totals: MailTotals = { sent: 0, alreadySent: 0, retried: 0, failed: 0 };

  /** Counts one event and returns the totals after it, for the log line that reports it. */
  count(event: keyof MailTotals): MailTotals {
    this.totals[event] += 1;
    return this.snapshot();
  }

  snapshot(): MailTotals {
    return { ...this.totals };
  }
}
