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
  DATA_EXPORT_TABLES,
  EXPORT_CODEBOOK_MARKDOWN,
  EXPORT_TABLE_NAMES,
  STUDY_EXPORT_CONSENT_TEXTS,
  STUDY_EXPORT_FORMAT,
  STUDY_EXPORT_MANIFEST,
  STUDY_EXPORT_NOTES,
  internalRoutes,
  studyExportFileName,
  type ExportTable,
  type StudyExportManifest,
  type StudyExportProblem,
} from '@uis/proto';
import { codebookCsv, codebookMarkdown, type ArchivedTables } from '../export/codebook';
import type { CsvRows } from '../export/csv-stream';
import { ExportSources, columnNames } from '../export/export-sources';
import { VerifiedZip } from './verified-zip';

/** What one export covers: one session, or the sessions of a group (oldest first). */
interface Exported {
  groupId: string | null;
  sessionIds: readonly string[];
}

/** What the researcher asked for: a session or a group, and whether to include identifiers.csv. */
export interface StudyExportRequest {
  sessionId?: string;
  groupId?: string;
  identifiers?: boolean;
}

/**
 * `/exportStudy`: a session, or every session of a group, as one ZIP archive for its owner: a CSV per
 * table of EXPORT_TABLES (identifiers.csv only when asked for), codebook.csv and codebook.md,
 * consent-texts.json and manifest.json. Every table covers all the exported sessions, one after the
 * other, each session's rows in their order.
 */
@Injectable()
export class StudyExportService {
  constructor(
    private readonly access: SessionAccessClient,
    private readonly internal: InternalClient,
    private readonly sources: ExportSources,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async exportFor(user: AuthUser, target: StudyExportRequest): Promise<StreamableFile> {
    const exportedAt = new Date();
    const identifiers = target.identifiers === true;
    // Everything that can refuse (access, studies, content) runs before the first byte, so a
    // refusal is still a JSON error; after it only Postgres can fail, and that breaks the download off.
    const exported = await this.exportedFor(user, target);
    const tables: readonly ExportTable[] = identifiers ? EXPORT_TABLE_NAMES : DATA_EXPORT_TABLES;
    const problems: StudyExportProblem[] = [];
    const report = (problem: StudyExportProblem, err: unknown) => {
      problems.push(problem);
      this.logger.error({ err, ...problem, userId: user.id }, 'study export left out rows');
    };
    const prepared = await this.sources.prepare(user, exported.sessionIds, tables, report);

    const zip = new VerifiedZip(exportedAt);
    const archived: ArchivedTables = tables.map((table) => ({ table, columns: prepared.columnsOf(table) }));
    for (const { table, columns } of archived) {
      zip.addCsv(studyExportFileName(table), columnNames(columns), () =>
        eachSession(exported.sessionIds, (sessionId) => prepared.rowsOf(table, sessionId)),
      );
    }
    const codebook = codebookCsv(archived);
    zip.addCsv(codebook.file, codebook.columns, () => codebook.rows);
    zip.addText(EXPORT_CODEBOOK_MARKDOWN, () => codebookMarkdown(archived, STUDY_EXPORT_NOTES));
    zip.addText(STUDY_EXPORT_CONSENT_TEXTS, () => `${JSON.stringify(prepared.exactConsentTexts, null, 2)}\n`);
    zip.end(STUDY_EXPORT_MANIFEST, (files) => {
      const manifest: StudyExportManifest = {
        format: STUDY_EXPORT_FORMAT,
        exportedAt: exportedAt.toISOString(),
        exportedBy: { userId: user.id, name: user.name, email: user.email },
        exported: { groupId: exported.groupId, sessionIds: [...exported.sessionIds], identifiers },
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
  private async exportedFor(user: AuthUser, { sessionId, groupId }: StudyExportRequest): Promise<Exported> {
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
}

/**
 * The rows of every session, one session after the other. One step per row for all of it: every
 * async generator a row passes through costs promises, and a million rows make garbage enough. A read
 * that fails (the database gone) fails the file, and the download breaks off: never an archive that
 * looks complete.
 */
async function* eachSession(
  sessionIds: readonly string[],
  rowsOf: (sessionId: string) => CsvRows,
): AsyncGenerator<object> {
  for (const sessionId of sessionIds) yield* rowsOf(sessionId);
}
