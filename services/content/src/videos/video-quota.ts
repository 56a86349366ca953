import type { EntityManager } from 'typeorm';
import { videoQuotaExceeded } from './upload-errors';
import { VideoEntity } from './video.entity';

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
 * Serialises one researcher's uploads across sessions and replicas while the quota is checked and the
 * row written, so two uploads cannot each fit alone and pass the quota together. Taken before the
 * session's lock (deletes take only that one), so the two never wait on each other in a circle.
 */
export const lockOwnerQuota = (tx: EntityManager, ownerId: string) =>
  tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`content-quota:${ownerId}`]);

/**
 * Refuses (413) an upload that would take the researcher's videos past their quota. Replacing a video
 * they uploaded frees its size, so the new one counts as the difference; videos with no recorded
 * uploader (from before it was recorded) count for nobody.
 */
export async function requireVideoQuota(db: EntityManager, question: QuotaQuestion): Promise<void> {
  const { ownerId, sessionId, incoming, quotaBytes } = question;
  const [usage] = await db.query<{ used: string }[]>(
    'SELECT COALESCE(SUM(size_bytes), 0)::text AS used FROM videos WHERE owner_id = $1',
    [ownerId],
  );
  const used = Number(usage?.used ?? 0);
  const previous = await db.findOneBy(VideoEntity, { sessionId });
  const freed = previous?.ownerId === ownerId ? previous.size : 0;
  const after = used - freed + incoming;
  if (after > quotaBytes) throw videoQuotaExceeded(used, after, quotaBytes);
}
