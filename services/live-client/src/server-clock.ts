/** Samples kept: the best of the recent ones counts, so a clock that drifts is followed. */
const WINDOW = 8;

/** The client's time in epoch milliseconds, with sub-millisecond precision where the platform has it. */
export const clientNow = (): number => performance.timeOrigin + performance.now();

interface Sample {
  /** Server time minus client time, assuming the answer was made halfway through the round trip. */
  offset: number;
  rtt: number;
}

/**
 * The server's clock as a client knows it (NTP's idea, simplified): each `clock` event is a sample of
 * round-trip time and offset, and the sample with the lowest round trip of the recent ones gives the
 * offset, since the less time the answer spent on the way, the less that time can be uneven. Every
 * browser then places the researcher's status on the same time line, so participants correct drift
 * against where the researcher is now, not against how late the status reached them.
 */
export class ServerClock {
  private readonly samples: Sample[] = [];
  private best: Sample | undefined;

  /** Epoch milliseconds on the server's clock, now. */
  now(): number {
    return clientNow() + (this.best?.offset ?? 0);
  }

  /** Whether at least one sample has been taken. */
  get synced(): boolean {
    return this.best !== undefined;
  }

  /** The round trip of the sample in use (ms): the uncertainty of now() is at most half of it. */
  get roundTripMs(): number | undefined {
    return this.best?.rtt;
  }

  /** A `clock` answer: asked at `sentAt`, answered `serverTime`, received at `receivedAt` (client ms). */
  sample(sentAt: number, serverTime: number, receivedAt: number): void {
    const rtt = Math.max(0, receivedAt - sentAt);
    this.samples.push({ offset: serverTime - (sentAt + rtt / 2), rtt });
    if (this.samples.length > WINDOW) this.samples.shift();
    this.best = this.samples.reduce((best, candidate) => (candidate.rtt < best.rtt ? candidate : best));
  }
}
