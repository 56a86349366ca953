import type { CallSettings } from '@uis/proto';
import type { CallTimers, Timer } from './call-timers';

export interface CallSettingsSource {
  /** GET /getCallSettings. */
  fetch: () => Promise<CallSettings>;
  /** Handed every settings loaded (the registered peer makes its next calls with them). */
  loaded: (settings: CallSettings) => void;
  timers: CallTimers;
  closed: () => boolean;
  backoff: (attempt: number) => number;
  /** TURN credentials are renewed this long before they expire (or halfway, when they live shorter). */
  renewBeforeMs: number;
}

/** The call settings, renewed before the TURN credentials in them expire. */
export class CallSettingsRenewal {
  private settings: CallSettings | null = null;
  /** The timer that renews the settings before their TURN credentials expire. */
  private renewal: Timer | undefined;

  constructor(private readonly source: CallSettingsSource) {}

  /** The settings last loaded (null before the first). */
  get current(): CallSettings | null {
    return this.settings;
  }

  /** Fetches the settings and plans their renewal. */
  async load(): Promise<void> {
    const settings = await this.source.fetch();
    if (this.source.closed()) return;
    this.settings = settings;
    this.source.loaded(settings);
    this.plan(settings);
  }

  /** Renews the settings now; on failure tries again, backing off, while the old ones still serve. */
  async renew(attempt = 0): Promise<void> {
    const { timers } = this.source;
    try {
      await this.load();
    } catch {
      if (this.renewal !== undefined) timers.cancel(this.renewal);
      this.renewal = timers.later(this.source.backoff(attempt), () => this.renew(attempt + 1));
    }
  }

  private plan(settings: CallSettings): void {
    const { timers } = this.source;
    if (this.renewal !== undefined) timers.cancel(this.renewal);
    this.renewal = undefined;
    if (settings.expiresAt === null) return;
    const left = settings.expiresAt - Date.now();
    const delay = Math.max(0, left - Math.min(this.source.renewBeforeMs, left / 2));
    this.renewal = timers.later(delay, () => this.renew());
  }
}
