import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import {
  LOGGER,
  Metrics,
  SessionAccessClient,
  badRequest,
  conflict,
  validationError,
  type AuthUser,
  type Logger,
  type SessionAccess,
} from '@uis/kit';
import { VIDEO_MIME_TYPE, routes, type AnswerOf, type VideoInfo } from '@uis/proto';
import { CONTENT_CONFIG, type ContentConfig } from '../content.config';
import { ObjectStore } from './object-store';
import { videoNotRemoved, videoNotStored } from './upload-errors';
import { leastFileBytes, receiveUpload, type ReceivedFile } from './upload-receiver';
import { UploadSlots } from './upload-slots';
import { requireVideoQuota } from './video-quota';
import { VideosRepository, type Video, type VideoQueries } from './videos.repository';
import { sanitizeVideoName } from './video-name';

const FILE_FIELD = routes.uploadVideo.multipartFile ?? 'file';

const sessionIdOf = (fields: Record<string, string>): string => {
  const parsed = routes.uploadVideo.request.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data.sessionId;
};

/**
 * A session's one video: the row in `videos` says which object of the bucket is current. Every
 * upload gets an object key of its own, so a replaced video is removed only after the row points at
 * the new one, and a player still reading the old one is never fed a mix of both.
 */
/** The answer to a video's delete, by the researcher's route and the internal one alike. */
export const VIDEO_DELETED_TEXT = 'Video deleted.';

@Injectable()
export class VideosService {
  constructor(
    private readonly videos: VideosRepository,
    private readonly store: ObjectStore,
    private readonly access: SessionAccessClient,
    private readonly slots: UploadSlots,
    @Inject(CONTENT_CONFIG) private readonly config: ContentConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.uploadBytes = metrics.counter('video_upload_bytes_total', 'Bytes of videos stored');
  }

  private readonly uploadBytes: Counter;

  async info(user: AuthUser, sessionId: string): Promise<VideoInfo> {
    await this.access.requireMember(user, sessionId);
    const video = await this.find(sessionId);
    return { name: video?.name ?? null };
  }

  find(sessionId: string): Promise<Video | null> {
    return this.videos.find(sessionId);
  }

  /**
   * Reads the multipart form as it arrives. When sessionId comes before the file (as the web app
   * sends it), the caller's right to the session, and their quota by Content-Length, are checked
   * before a byte of the file is read; when it comes after, the file is spooled and checked first,
   * and the session when the form ends. Holds one of the caller's upload slots from the first byte
   * to the answer, whatever the answer is.
   */
  async upload(user: AuthUser, req: IncomingMessage): Promise<AnswerOf<'uploadVideo'>> {
    const release = this.slots.acquire(user.id);
    try {
      // The session the video is written to is the one that was checked: the receiver refuses a
      // repeated sessionId, and this refuses any path that would ask about a second one.
      let checked: { sessionId: string; access: Promise<SessionAccess> } | undefined;
      const checkSession = async (sessionId: string): Promise<string> => {
        if (checked && checked.sessionId !== sessionId) throw badRequest('Send sessionId only once.');
        checked ??= { sessionId, access: this.requireVideoOwner(user, sessionId) };
        await checked.access;
        return checked.sessionId;
      };

      const received = await receiveUpload(req, {
        fileField: FILE_FIELD,
        maxBytes: this.config.VIDEO_MAX_BYTES,
        tmpDir: this.config.UPLOAD_TMP_DIR,
        beforeFile: async (fields) => {
          if (fields.sessionId === undefined) return;
          const sessionId = await checkSession(sessionIdOf(fields));
          const least = leastFileBytes(req);
          if (least !== undefined) await this.requireQuota(this.videos, user.id, sessionId, least);
        },
      });
      try {
        const sessionId = await checkSession(sessionIdOf(received.fields));
        if (!received.file) throw badRequest(`${FILE_FIELD}: choose an MP4 video to upload`);
        return { name: await this.replace(user, sessionId, received.file) };
      } finally {
        if (received.file) await fs.promises.rm(received.file.path, { force: true });
      }
    } finally {
      release();
    }
  }

  private requireQuota(videos: VideoQueries, ownerId: string, sessionId: string, incoming: number) {
    return requireVideoQuota(videos, {
      ownerId,
      sessionId,
      incoming,
      quotaBytes: this.config.VIDEO_QUOTA_BYTES,
    });
  }

  async delete(user: AuthUser, sessionId: string): Promise<void> {
    await this.access.requireOwner(user, sessionId);
    await this.remove(sessionId);
  }

  /** Removes a session's video, object first, so a failure leaves the row for the retry. Idempotent. */
  async remove(sessionId: string): Promise<void> {
    await this.videos.transaction(async (tx) => {
      await tx.lockSession(sessionId);
      const video = await tx.find(sessionId);
      if (!video) return;
      await this.store.remove(video.objectKey).catch((error: unknown) => {
        this.logger.warn({ err: error, sessionId }, 'the object store did not remove a video');
        throw videoNotRemoved();
      });
      await tx.delete(sessionId);
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

  /**
   * Checks the quota against the real size, stores the new object, points the row at it (checking the
   * quota again, under the researcher's lock, against what other uploads wrote meanwhile), then
   * removes the object it replaced.
   */
  private async replace(user: AuthUser, sessionId: string, file: ReceivedFile): Promise<string> {
    const name = sanitizeVideoName(file.originalName);
    // Before the PUT too, so a video over the quota is not sent to the store only to be removed.
    await this.requireQuota(this.videos, user.id, sessionId, file.size);
    const objectKey = `${sessionId}/${randomUUID()}.mp4`;
    const { etag } = await this.storeObject(sessionId, objectKey, file);

    let replaced: string | undefined;
    try {
      replaced = await this.videos.transaction(async (tx) => {
        await tx.lockOwnerQuota(user.id);
        await tx.lockSession(sessionId);
        await this.requireQuota(tx, user.id, sessionId, file.size);
        const previous = await tx.find(sessionId);
        await tx.put(sessionId, {
          objectKey,
          name,
          size: file.size,
          etag,
          uploadedAt: new Date(),
          ownerId: user.id,
        });
        return previous?.objectKey;
      });
    } catch (error) {
      // No row points at the new object: it goes, now or once the store answers again.
      await this.store.discard(objectKey).catch(() => undefined);
      throw error;
    }
    if (replaced) {
      await this.store.discard(replaced).catch((error: unknown) => {
        // The new video is in place; an old object left behind costs space, not correctness.
        this.logger.warn({ err: error, sessionId, objectKey: replaced }, 'could not remove a replaced video');
      });
    }
    this.logger.info({ sessionId, objectKey, size: file.size }, 'video stored');
    this.uploadBytes.inc(file.size);
    return name;
  }

  /**
   * One PUT of the spooled file. A store that fails or stops midway is the uploader's 503 with a
   * message to try again; the session keeps its previous video, since the row is not touched.
   */
  private async storeObject(sessionId: string, objectKey: string, file: ReceivedFile) {
    try {
      return await this.store.putFile(objectKey, file, VIDEO_MIME_TYPE);
    } catch (error) {
      this.logger.warn({ err: error, sessionId, objectKey }, 'the object store did not take a video');
      // Not awaited: a store that stopped answering would hold the uploader's answer (and slot) for
      // another idle limit. Nothing points at the key, so removing it later is as good.
      void this.store.discard(objectKey).catch((failure: unknown) => {
        this.logger.warn({ err: failure, sessionId, objectKey }, 'could not remove a failed upload');
      });
      throw videoNotStored();
    }
  }
}
