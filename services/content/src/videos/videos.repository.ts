import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import { VideoEntity } from './video.entity';

/** A session's video as the table holds it (the entity is the row: nothing to map). */
export type Video = VideoEntity;

/** What an upload writes to the session's row. */
export type StoredVideo = Omit<Video, 'sessionId'>;

/** The video reads and writes, on the service's connection or inside a transaction. */
export class VideoQueries {
  constructor(protected readonly db: EntityManager) {}

  find(sessionId: string): Promise<Video | null> {
    return this.db.findOneBy(VideoEntity, { sessionId });
  }

  /** The bytes of every video `ownerId` uploaded (rows without an uploader count for nobody). */
  async usedBytes(ownerId: string): Promise<number> {
    const [usage] = await this.db.query<{ used: string }[]>(
      'SELECT COALESCE(SUM(size_bytes), 0)::text AS used FROM videos WHERE owner_id = $1',
      [ownerId],
    );
    return Number(usage?.used ?? 0);
  }
}

/** Inside a transaction: the locks, and the row's writes (VideosRepository.transaction). */
export class VideoTransaction extends VideoQueries {
  /**
   * Serialises one researcher's uploads across sessions and replicas while the quota is checked and
   * the row written, so two uploads cannot each fit alone and pass the quota together. Taken before
   * the session's lock (deletes take only that one), so the two never wait on each other in a circle.
   */
  async lockOwnerQuota(ownerId: string): Promise<void> {
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`content-quota:${ownerId}`]);
  }

  /** Serialises the changes to one session's video (uploads, deletes) across requests and replicas. */
  async lockSession(sessionId: string): Promise<void> {
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`content-video:${sessionId}`]);
  }

  /** Points the session's row at `video`, creating it if the session had none. */
  async put(sessionId: string, video: StoredVideo): Promise<void> {
    await this.db.upsert(VideoEntity, { sessionId, ...video }, ['sessionId']);
  }

  async delete(sessionId: string): Promise<void> {
    await this.db.delete(VideoEntity, { sessionId });
  }
}

/** The videos table: every read and write of it. */
@Injectable()
export class VideosRepository extends VideoQueries {
  constructor(@InjectRepository(VideoEntity) videos: Repository<VideoEntity>) {
    super(videos.manager);
  }

  /** The sessions among `sessionIds` that have a video. */
  async sessionsWithVideo(sessionIds: readonly string[]): Promise<string[]> {
    const rows = await this.db.find(VideoEntity, {
      where: { sessionId: In([...sessionIds]) },
      select: { sessionId: true },
    });
    return rows.map((row) => row.sessionId);
  }

  /** `work` in one transaction: it commits when `work` resolves, and rolls back when it throws. */
  transaction<T>(work: (tx: VideoTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new VideoTransaction(tx)));
  }
}
