import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@uis/kit';
import { ActionsRepository } from '../actions/actions.repository';
import { ContentTransactions } from '../content-transactions';
import { PromptsRepository } from '../prompts/prompts.repository';
import { VideosRepository } from '../videos/videos.repository';
import { VideosService } from '../videos/videos.service';

/** How many video objects are removed at once when a whole group's sessions go. */
const REMOVE_CONCURRENCY = 8;

/** What studies asks of content when sessions are deleted or change type. */
@Injectable()
export class SessionDataService {
  constructor(
    private readonly transactions: ContentTransactions,
    private readonly actions: ActionsRepository,
    private readonly prompts: PromptsRepository,
    private readonly videoRows: VideosRepository,
    private readonly videos: VideosService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Removes everything content holds for these sessions. Videos go first, each object before its
   * row, so a failure part-way leaves rows that the (idempotent) retry finds and finishes.
   */
  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    const ids = [...new Set(sessionIds)];
    const withVideo = await this.videoRows.sessionsWithVideo(ids);
    const queue = [...withVideo];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await this.videos.remove(next);
    };
    await Promise.all(Array.from({ length: Math.min(REMOVE_CONCURRENCY, queue.length) }, worker));

    await this.transactions.run(async (tx) => {
      await this.actions.deleteSessions(ids, tx);
      await this.prompts.deleteSessions(ids, tx);
    });
    this.logger.info({ sessions: ids.length, videos: withVideo.length }, 'session data deleted');
  }
}
