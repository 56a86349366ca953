import { Inject, Injectable, StreamableFile } from '@nestjs/common';
import { InternalClient, LOGGER, SessionAccessClient, type AuthUser, type Logger } from '@uis/kit';
import {
  EXPORT_COLUMNS,
  EXPORT_FILE_NAME,
  formatClockTime,
  internalRoutes,
  type ExportRow,
  type RecordKind,
} from '@uis/proto';
import { MessagesService } from '../messages/messages.service';
import { PixelsService } from '../pixels/pixels.service';
import { PlaybackService } from '../playback/playback.service';
import { csvStream } from './csv-stream';

type AnyExportRow = { [K in RecordKind]: ExportRow<K> }[RecordKind];

/**
 * `/exportRecords`: one kind of record of a session as a CSV download, for the session's owner.
 * Messages, pixels and the playback log stream from Postgres a page at a time, so a long session costs the same memory
 * as a short one; prompts are few and come from content in one call.
 */
@Injectable()
export class RecordsExportService {
  constructor(
    private readonly access: SessionAccessClient,
    private readonly internal: InternalClient,
    private readonly messages: MessagesService,
    private readonly pixels: PixelsService,
    private readonly playback: PlaybackService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async exportFor(user: AuthUser, sessionId: string, kind: RecordKind): Promise<StreamableFile> {
    // Everything that can refuse (access, content) runs before the first byte, so it is still a JSON error.
    await this.access.requireOwner(user, sessionId);
    const rows = await this.rowsOf(sessionId, kind);
    return new StreamableFile(csvStream(EXPORT_COLUMNS[kind], rows), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${EXPORT_FILE_NAME}"`,
    }).setErrorLogger((err) => this.logger.error({ err, sessionId, kind }, 'export failed while streaming'));
  }

  private async rowsOf(
    sessionId: string,
    kind: RecordKind,
  ): Promise<AsyncIterable<AnyExportRow> | Iterable<AnyExportRow>> {
    switch (kind) {
      case 'messages':
        return this.messages.exportRows(sessionId);
      case 'pixels':
        return this.pixels.exportRows(sessionId);
      case 'playback':
        return this.playback.exportRows(sessionId);
      case 'prompts': {
        const { prompts } = await this.internal.call(internalRoutes.contentListPrompts, { sessionId });
        return prompts.map((prompt): ExportRow<'prompts'> => ({
          prompt_id: prompt.prompt_id,
          time: formatClockTime(prompt.time),
          duration: prompt.duration,
          prompt: prompt.prompt,
        }));
      }
    }
  }
}
