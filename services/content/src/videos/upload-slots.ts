import { tooManyRequests } from '@uis/kit';

export interface UploadSlotLimits {
  /** Uploads one researcher may have in progress on this process. */
  perUser: number;
  /** Uploads this process takes at once, whoever sends them. */
  total: number;
}

/** Gives a slot back; calling it again does nothing, so every path may call it. */
export type ReleaseSlot = () => void;

/**
 * Counts the uploads in progress on this process, per researcher and in all, and refuses one more
 * past either limit with a 429. Each upload holds a temp file as large as the video and a PUT to the
 * store; without a limit one researcher (or a script with their token) could fill the spool disk and
 * the process's sockets. Per process, not shared between replicas: the resource it protects (disk,
 * memory, connections) is the process's own.
 */
export class UploadSlots {
  private readonly byUser = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: UploadSlotLimits) {}

  /** Takes a slot for `userId`, or throws a 429 that says which limit was reached. */
  acquire(userId: string): ReleaseSlot {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= this.limits.perUser) {
      const uploads = this.limits.perUser === 1 ? 'an upload' : `${this.limits.perUser} uploads`;
      throw tooManyRequests(
        `You already have ${uploads} in progress: wait until one has finished, then try again.`,
      );
    }
    if (this.total >= this.limits.total) {
      throw tooManyRequests('The server is busy with other uploads right now: try again in a minute.');
    }
    this.byUser.set(userId, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
    };
  }

  /** Uploads in progress: of one researcher, or in all (tests and diagnostics). */
  inProgress(userId?: string): number {
    return userId === undefined ? this.total : (this.byUser.get(userId) ?? 0);
  }
}
