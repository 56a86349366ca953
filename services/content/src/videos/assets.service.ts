import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  LOGGER,
  SessionAccessClient,
  notFound,
  validationError,
  type AuthUser,
  type Logger,
} from '@uis/kit';
import { ERROR_CODES, VIDEO_MIME_TYPE, routes } from '@uis/proto';
import { noneMatch, parseRange, rangeStillValid } from './byte-range';
import { ObjectStore } from './object-store';
import { videoNotReadable } from './upload-errors';
import { VideosService } from './videos.service';

const noSuchVideo = () => notFound('No such video.');

/**
 * Serves a session's video at /assets/<sessionId>/<file> so a browser's <video> can seek: one byte
 * range per request (206), the whole file without one (200), 416 past the end, 304 for a copy the
 * browser already has. The bytes come straight from the object store's ranged GET, never buffered.
 */
@Injectable()
export class AssetsService {
  constructor(
    private readonly videos: VideosService,
    private readonly store: ObjectStore,
    private readonly access: SessionAccessClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async serve(user: AuthUser, req: Request, res: Response): Promise<void> {
    const params = routes.videoAsset.request.safeParse(req.params);
    if (!params.success) throw validationError(params.error);
    const { sessionId, file } = params.data;

    // Membership first, so nobody outside the session learns what its video is called.
    await this.access.requireMember(user, sessionId);
    const video = await this.videos.find(sessionId);
    if (!video || video.name !== file) throw noSuchVideo();

    const etag = `"${video.etag}"`;
    // no-cache: the browser keeps its copy but asks (If-None-Match) each time, since a re-upload
    // under the same name is a new video at the same URL. private: it is one session's material.
    const common = {
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Cache-Control': 'private, no-cache',
      'X-Content-Type-Options': 'nosniff',
    };
    if (noneMatch(req.get('if-none-match'), video.etag)) {
      res.status(HttpStatus.NOT_MODIFIED).set(common).end();
      return;
    }

    const asked = rangeStillValid(req.get('if-range'), video.etag)
      ? parseRange(req.get('range'), video.size)
      : { kind: 'whole' as const };
    if (asked.kind === 'unsatisfiable') {
      res.set({ ...common, 'Content-Range': `bytes */${video.size}` });
      throw new AppError(
        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
        ERROR_CODES.VALIDATION,
        `The requested range is outside the video, which has ${video.size} bytes.`,
      );
    }
    const [start, end] = asked.kind === 'range' ? [asked.start, asked.end] : [0, video.size - 1];
    const length = end - start + 1;
    const headers: Record<string, string> = {
      ...common,
      'Content-Type': VIDEO_MIME_TYPE,
      'Content-Length': String(length),
    };
    if (asked.kind === 'range') headers['Content-Range'] = `bytes ${start}-${end}/${video.size}`;
    const status = asked.kind === 'range' ? HttpStatus.PARTIAL_CONTENT : HttpStatus.OK;

    if (req.method === 'HEAD') {
      res.status(status).set(headers).end();
      return;
    }
    // Opened before any header is set, so a missing object is still a clean 404 envelope, and a store
    // that does not answer a 503 that says so.
    const body = await this.store.read(video.objectKey, start, length).catch((error: unknown) => {
      this.logger.warn({ err: error, sessionId }, 'the object store did not answer a video read');
      throw videoNotReadable();
    });
    if (!body) throw noSuchVideo();
    // Whichever side failed first: pipeline then destroys the other one, with an error of its own.
    let firstToFail: 'store' | 'player' | undefined;
    body.once('error', () => (firstToFail ??= 'store'));
    res.once('close', () => {
      if (!res.writableFinished) firstToFail ??= 'player';
    });
    res.status(status).set(headers);
    try {
      // On any failure pipeline destroys the response too: the player sees a cut response (fewer
      // bytes than Content-Length) and asks again, rather than waiting on a stream that never ends.
      await pipeline(body, res);
    } catch (error) {
      if (firstToFail === 'store') {
        this.logger.warn({ err: error, sessionId }, 'the object store stopped sending a video');
      } else {
        // Players abort ranged reads all the time when they seek; nothing to answer any more.
        this.logger.debug({ err: error, sessionId }, 'video stream ended early');
      }
    }
  }
}
