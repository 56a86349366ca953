import { videoQuotaExceeded } from './upload-errors';
import type { VideoQueries } from './videos.repository';

export interface QuotaQuestion {
  /** The researcher uploading, charged for what they upload (`videos.owner_id`). */
  ownerId: string;
  /** The session the upload replaces the video of, if it has one. */
  sessionId: string;
  /** The size of the upload (or the least it can be, before it is read). */
  incoming: number;
  quotaBytes: number;
}

/**
 * Refuses (413) an upload that would take the researcher's videos past their quota. Replacing a video
 * they uploaded frees its size, so the new one counts as the difference; videos with no recorded
 * uploader (from before it was recorded) count for nobody.
 */
export async function requireVideoQuota(videos: VideoQueries, question: QuotaQuestion): Promise<void> {
  const { ownerId, sessionId, incoming, quotaBytes } = question;
  const used = await videos.usedBytes(ownerId);
  const previous = await videos.find(sessionId);
  const freed = previous?.ownerId === ownerId ? previous.size : 0;
  const after = used - freed + incoming;
  if (after > quotaBytes) throw videoQuotaExceeded(used, after, quotaBytes);
}
