import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  LOGGER,
  SessionAccessClient,
  badRequest,
  conflict,
  validationError,
  type AuthUser,
  type Logger,
  type SessionAccess,
} from '@uis/kit';
import { VIDEO_MIME_TYPE, routes, type AnswerOf, type VideoInfo } from '@uis/proto';
import type { DataSource, EntityManager } from 'typeorm';
import { CONTENT_CONFIG, type ContentConfig } from '../content.config';
import { ObjectStore } from './object-store';
import { receiveUpload, type ReceivedFile } from './upload-receiver';
import { VideoEntity } from './video.entity';
import { sanitizeVideoName } from './video-name';

const FILE_FIELD = routes.uploadVideo.multipartFile ?? 'file';

const sessionIdOf = (fields: Record<string, string>): string => {
  const parsed = routes.uploadVideo.request.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data.sessionId;
};

/** Serialises the changes to one session's video (uploads, deletes) across requests and replicas. */
const lockSessionVideo = (tx: EntityManager, sessionId: string) =>
  tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`content-video:${sessionId}`]);

/**
 * A session's one video: the row in `videos` says which object of the bucket is current. Every
 * upload gets an object key of its own, so a replaced video is removed only after the row points at
 * the new one, and a player still reading the old one is never fed a mix of both.
 */
@Injectable()
export class VideosService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly store: ObjectStore,
    private readonly access: SessionAccessClient,
    @Inject(CONTENT_CONFIG) private readonly config: ContentConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async info(user: AuthUser, sessionId: string): Promise<VideoInfo> {
    await this.access.requireMember(user, sessionId);
    const video = await this.find(sessionId);
    return { name: video?.name ?? null };
  }

  find(sessionId: string): Promise<VideoEntity | null> {
    return this.db.getRepository(VideoEntity).findOneBy({ sessionId });
  }

  /**
   * Reads the multipart form as it arrives. When sessionId comes before the file (as the web app
   * sends it), the caller's right to the session is checked before a byte of the file is read; when
   * it comes after, the file is spooled and checked first, and the session when the form ends.
   */
  async upload(user: AuthUser, req: IncomingMessage): Promise<AnswerOf<'uploadVideo'>> {
    let checked: Promise<SessionAccess> | undefined;
    const checkSession = (sessionId: string) => (checked ??= this.requireVideoOwner(user, sessionId));

    const received = await receiveUpload(req, {
      fileField: FILE_FIELD,
      maxBytes: this.config.VIDEO_MAX_BYTES,
      tmpDir: this.config.UPLOAD_TMP_DIR,
      beforeFile: async (fields) => {
        if (fields.sessionId !== undefined) await checkSession(sessionIdOf(fields));
      },
    });
    try {
      const sessionId = sessionIdOf(received.fields);
      await checkSession(sessionId);
      if (!received.file) throw badRequest(`${FILE_FIELD}: choose an MP4 video to upload`);
      return { name: await this.replace(sessionId, received.file) };
    } finally {
      if (received.file) await fs.promises.rm(received.file.path, { force: true });
    }
  }

  async delete(user: AuthUser, sessionId: string): Promise<void> {
    await this.access.requireOwner(user, sessionId);
    await this.remove(sessionId);
  }

  /** Removes a session's video, object first, so a failure leaves the row for the retry. Idempotent. */
  async remove(sessionId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockSessionVideo(tx, sessionId);
      const video = await tx.findOneBy(VideoEntity, { sessionId });
      if (!video) return;
      await this.store.remove(video.objectKey);
      await tx.delete(VideoEntity, { sessionId });
    });
  }

  /** The owner may upload, and only to a video session (the editor offers the upload for those alone). */
  private async requireVideoOwner(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    const access = await this.access.requireOwner(user, sessionId);
    if (access.sessionType !== 'video') {
      throw conflict(
        `This is a ${access.sessionType} session: set its type to video before uploading a video.`,
      );
    }
    return access;
  }

  /** Stores the new object, points the row at it, then removes the object it replaced. */
  private async replace(sessionId: string, file: ReceivedFile): Promise<string> {
    const name = sanitizeVideoName(file.originalName);
    const objectKey = `${sessionId}/${randomUUID()}.mp4`;
    const { etag } = await this.store.putFile(objectKey, file, VIDEO_MIME_TYPE);

    let replaced: string | undefined;
    try {
      replaced = await this.db.transaction(async (tx) => {
        await lockSessionVideo(tx, sessionId);
        const previous = await tx.findOneBy(VideoEntity, { sessionId });
        await tx.upsert(
          VideoEntity,
          { sessionId, objectKey, name, size: file.size, etag, uploadedAt: new Date() },
          ['sessionId'],
        );
        return previous?.objectKey;
      });
    } catch (error) {
      await this.store.remove(objectKey).catch(() => undefined);
      throw error;
    }
    if (replaced) {
      await this.store.remove(replaced).catch((error: unknown) => {
        // The new video is in place; an old object left behind costs space, not correctness.
        this.logger.warn({ err: error, sessionId, objectKey: replaced }, 'could not remove a replaced video');
      });
    }
    this.logger.info({ sessionId, objectKey, size: file.size }, 'video stored');
    return name;
  }
}
