import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LOGGER, type Logger } from '@uis/kit';
import { In, type DataSource } from 'typeorm';
import { ActionEntity } from '../actions/action.entity';
import { PromptEntity } from '../prompts/prompt.entity';
import { VideoEntity } from '../videos/video.entity';
import { VideosService } from '../videos/videos.service';

/** How many video objects are removed at once when a whole group's sessions go. */
const REMOVE_CONCURRENCY = 8;

/** What studies asks of content when sessions are deleted or change type. */
@Injectable()
export class SessionDataService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly videos: VideosService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Removes everything content holds for these sessions. Videos go first, each object before its
   * row, so a failure part-way leaves rows that the (idempotent) retry finds and finishes.
   */
  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    const ids = [...new Set(sessionIds)];
    const withVideo = await this.db
      .getRepository(VideoEntity)
      .find({ where: { sessionId: In(ids) }, select: { sessionId: true } });
    const queue = withVideo.map((video) => video.sessionId);
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await this.videos.remove(next);
    };
    await Promise.all(Array.from({ length: Math.min(REMOVE_CONCURRENCY, queue.length) }, worker));

    await this.db.transaction(async (tx) => {
      await tx.delete(ActionEntity, { sessionId: In(ids) });
      await tx.delete(PromptEntity, { sessionId: In(ids) });
    });
    this.logger.info({ sessions: ids.length, videos: withVideo.length }, 'session data deleted');
  }
}
