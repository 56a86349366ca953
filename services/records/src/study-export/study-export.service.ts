import { Inject, Injectable, StreamableFile } from '@nestjs/common';
import {
  GROUP_ACCESS_TEXTS,
  InternalClient,
  LOGGER,
  SessionAccessClient,
  forbidden,
  notFound,
  type AuthUser,
  type Logger,
} from '@uis/kit';
import {
  EXPORT_COLUMNS,
  RECORD_KINDS,
  STUDY_EXPORT_COLUMNS,
  STUDY_EXPORT_CONSENT_TEXTS,
  STUDY_EXPORT_FORMAT,
  STUDY_EXPORT_MANIFEST,
  STUDY_EXPORT_NOTES,
  STUDY_EXPORT_TABLES,
  formatClockTime,
  internalRoutes,
  studyExportFileName,
  type ExportRow,
  type Prompt,
  type StudyExportManifest,
  type StudyExportProblem,
  type StudyExportTable,
} from '@uis/proto';
import { AuditLogService } from '../audit/audit-log.service';
import { DeviceChecksService } from '../device-checks/device-checks.service';
import { MessagesService } from '../messages/messages.service';
import { PixelsService } from '../pixels/pixels.service';
import { PlaybackService } from '../playback/playback.service';
import { ConsentExportSource, type ConsentRowSources } from '../withdrawals/consent-export.source';
import { StudyParticipantsService } from './study-participants.service';
import { VerifiedZip, type CsvRows } from './verified-zip';

/** What one export covers: one session, or the sessions of a group (oldest first). */
interface Exported {
  groupId: string | null;
  sessionIds: readonly string[];
}

/**
 * `/exportStudy`: a session, or every session of a group, as one ZIP archive for its owner: a CSV
 * per kind of record, participants.csv, audit.csv and manifest.json (STUDY_EXPORT_COLUMNS and
 * STUDY_EXPORT_TABLES in proto). Every table covers all the exported sessions, one after the other,
 * each session's rows in their order.
 */
@Injectable()
export class StudyExportService {
  constructor(
    private readonly access: SessionAccessClient,
    private readonly internal: InternalClient,
    private readonly messages: MessagesService,
    private readonly pixels: PixelsService,
    private readonly playback: PlaybackService,
    private readonly audit: AuditLogService,
    private readonly participants: StudyParticipantsService,
    private readonly consent: ConsentExportSource,
    private readonly deviceChecks: DeviceChecksService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async exportFor(user: AuthUser, target: { sessionId?: string; groupId?: string }): Promise<StreamableFile> {
    const exportedAt = new Date();
    // Everything that can refuse (access, studies, content) runs before the first byte, so a
    // refusal is still a JSON error; after it only Postgres can fail, and that breaks the download off.
    const exported = await this.exportedFor(user, target);
    const prompts = await this.promptsOf(exported.sessionIds);
    const consent = await this.consent.prepare(exported.sessionIds);

    const zip = new VerifiedZip(exportedAt);
    const problems: StudyExportProblem[] = [];
    const report = (problem: StudyExportProblem, err: unknown) => {
      problems.push(problem);
      this.logger.error({ err, ...problem, userId: user.id }, 'study export left out rows');
    };
    const rowsOf = this.rowSources(prompts, consent.rows, report);
    for (const table of STUDY_EXPORT_TABLES) {
      zip.addCsv(studyExportFileName(table), STUDY_EXPORT_COLUMNS[table], () =>
        eachSession(table, exported.sessionIds, rowsOf[table]),
      );
    }
    zip.addText(STUDY_EXPORT_CONSENT_TEXTS, () => `${JSON.stringify(consent.exactTexts, null, 2)}\n`);
    zip.end(STUDY_EXPORT_MANIFEST, (files) => {
      const manifest: StudyExportManifest = {
        format: STUDY_EXPORT_FORMAT,
        exportedAt: exportedAt.toISOString(),
        exportedBy: { userId: user.id, name: user.name, email: user.email },
        exported: { groupId: exported.groupId, sessionIds: [...exported.sessionIds] },
        files: [...files],
        notes: [...STUDY_EXPORT_NOTES],
        problems,
      };
      return `${JSON.stringify(manifest, null, 2)}\n`;
    });

    const what = target.groupId ? `group-${target.groupId}` : `session-${target.sessionId}`;
    return new StreamableFile(zip.output, {
      type: 'application/zip',
      disposition: `attachment; filename="study-${what}.zip"`,
    }).setErrorLogger((err) =>
      this.logger.error({ err, ...target, userId: user.id }, 'study export failed while streaming'),
    );
  }

  /** The sessions the caller may export: their own session, or every session of their own group. */
  private async exportedFor(
    user: AuthUser,
    { sessionId, groupId }: { sessionId?: string; groupId?: string },
  ): Promise<Exported> {
    if (sessionId !== undefined) {
      await this.access.requireOwner(user, sessionId);
      return { groupId: null, sessionIds: [sessionId] };
    }
    // The route's schema lets exactly one of the two through.
    const group = await this.internal.call(internalRoutes.studiesGroupSessions, {
      groupId: groupId!,
      userId: user.id,
    });
    if (!group.exists) throw notFound(GROUP_ACCESS_TEXTS.noGroup);
    if (!group.owner) throw forbidden(GROUP_ACCESS_TEXTS.notYourGroup);
    return { groupId: groupId!, sessionIds: group.sessionIds };
  }

  /** Each session's prompts from content (few per session), asked one session at a time. */
  private async promptsOf(sessionIds: readonly string[]): Promise<Map<string, Prompt[]>> {
    const prompts = new Map<string, Prompt[]>();
    for (const sessionId of sessionIds) {
      const answer = await this.internal.call(internalRoutes.contentListPrompts, { sessionId });
      prompts.set(sessionId, answer.prompts);
    }
    return prompts;
  }

  /** Where each table's rows of one session come from. */
  private rowSources(
    prompts: Map<string, Prompt[]>,
    consent: ConsentRowSources,
    report: ReportProblem,
  ): {
    [T in StudyExportTable]: (sessionId: string) => CsvRows;
  } {
    return {
      messages: (sessionId) => this.messages.exportRows(sessionId),
      pixels: (sessionId) => this.pixels.exportRows(sessionId),
      prompts: (sessionId) =>
        (prompts.get(sessionId) ?? []).map((prompt): ExportRow<'prompts'> => ({
          prompt_id: prompt.prompt_id,
          time: formatClockTime(prompt.time),
          duration: prompt.duration,
          prompt: prompt.prompt,
        })),
      playback: (sessionId) => this.playback.exportRows(sessionId),
      participants: (sessionId) =>
        lazy(() =>
          this.participants.rowsOf(sessionId, (err) =>
            report({ file: studyExportFileName('participants'), sessionId, message: rosterMissing }, err),
          ),
        ),
      audit: (sessionId) => this.audit.exportRows(sessionId),
      ...consent,
      'device-checks': (sessionId) => this.deviceChecks.exportRows(sessionId),
    };
  }
}

/** The kinds of record whose own rows (File.csv's) have no sessionId: the study export adds it. */
const ADDS_SESSION_ID: ReadonlySet<StudyExportTable> = new Set(
  RECORD_KINDS.filter((kind) => !(EXPORT_COLUMNS[kind] as readonly string[]).includes('sessionId')),
);

type ReportProblem = (problem: StudyExportProblem, err: unknown) => void;

const rosterMissing =
  'The roster (who was invited, who came by link, panel ids) could not be read: these rows hold the records’ writers only, with no source, invitation, join time or panel ids.';

/**
 * The rows of every session, one session after the other, each given its session's id when `table`
 * has none of its own. One step per row for all of it: every async generator a row passes through
 * costs promises, and a million rows make garbage enough. A read that fails (the database gone)
 * fails the file, and the download breaks off: never an archive that looks complete.
 */
async function* eachSession(
  table: StudyExportTable,
  sessionIds: readonly string[],
  rowsOf: (sessionId: string) => CsvRows,
): AsyncGenerator<object> {
  const addSessionId = ADDS_SESSION_ID.has(table);
  for (const sessionId of sessionIds) {
    for await (const row of rowsOf(sessionId)) {
      // Each row is a fresh object of its exportRows: completed in place rather than copied.
      if (addSessionId) (row as { sessionId?: string }).sessionId = sessionId;
      yield row;
    }
  }
}

/** A list read only when its turn comes. */
async function* lazy<R>(read: () => Promise<R[]>): AsyncGenerator<R> {
  yield* await read();
}
