import { z } from 'zod';
import { id } from '../fields';
import { defineRoutes } from '../route';
import { CONSENT_EXPORT_COLUMNS, CONSENT_EXPORT_TABLES } from './consent.routes';
import { DEVICE_CHECK_EXPORT_COLUMNS, DEVICE_CHECK_EXPORT_TABLES } from './device-check.routes';
import { EXPORT_COLUMNS } from './records.routes';

/**
 * The study export: a whole session, or every session of a group, as one ZIP archive. Its layout
 * (file names, the columns of each CSV, the manifest) is part of the wire, so it lives here.
 */

/** The CSV files of an archive, in the order they are written; each is `<table>.csv`. */
export const STUDY_EXPORT_TABLES = [
  'messages',
  'pixels',
  'prompts',
  'playback',
  'participants',
  'audit',
  ...CONSENT_EXPORT_TABLES,
  ...DEVICE_CHECK_EXPORT_TABLES,
] as const;
export type StudyExportTable = (typeof STUDY_EXPORT_TABLES)[number];

/** The archive's last file: what it holds, who exported it, and the SHA-256 of every other file. */
export const STUDY_EXPORT_MANIFEST = 'manifest.json';
/**
 * Every consent text exactly as participants were shown it (JSON): the CSV's cells are neutralised
 * for spreadsheets (a leading ' before =, +, - or @), so their SHA-256 is checked against this file.
 */
export const STUDY_EXPORT_CONSENT_TEXTS = 'consent-texts.json';
/** What the manifest says of the files whose meaning is not plain from their name. */
export const STUDY_EXPORT_NOTES = [
  `${STUDY_EXPORT_CONSENT_TEXTS} holds every consent text exactly as shown, with its version and SHA-256: hash the text there to verify it. consent-texts.csv holds the same texts for spreadsheets, where a text starting with =, +, - or @ has a ' put before it.`,
  "Every CSV is UTF-8 with a byte order mark and CRLF rows; a cell starting with =, +, - or @ (after any spaces) has a ' put before it, so no spreadsheet runs it as a formula.",
] as const;
/** `format` of the manifest: changes when a column or a file changes meaning. */
export const STUDY_EXPORT_FORMAT = 'uis-study-export/1';

/**
 * The kinds of researcher change the audit log records, named after the route that made them:
 * an edited message's text, a deleted message, a deleted click.
 */
export const AUDIT_KINDS = ['editMessage', 'deleteMessage', 'deletePixel'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * The columns of each CSV. The record kinds keep File.csv's columns (EXPORT_COLUMNS) first, in its
 * order, so a script written for File.csv reads them by the same names; `sessionId` is added last
 * where the kind lacks one. One table per kind for the whole export (a single session or a group),
 * rather than a folder per session: a study is analysed as one table per kind (read once, grouped
 * by sessionId), the archive has the same files whatever the group's size, and a session's
 * export has exactly the shape of a group's.
 * - participants: one row per person and session, for everyone who wrote a record of the session
 *   (a message, a reaction, a click, a playback entry): their latest name and e-mail, their counts,
 *   and the times of their first and last record; and for everyone the session's scope names or who
 *   joined by its link (studies' roster), how they came (`source`: scope or link), when they were
 *   last invited and first opened the session, and their recruitment panel's ids (`panelIds`, the
 *   join link's query as JSON, e.g. {"PROLIFIC_PID":"..."}, of their first join that carried any; later
 *   joins' other ids in `panelIdConflicts`, as JSON). A person on the roster who wrote
 *   nothing has counts of 0 and no name; one who wrote but is not on it (the researcher) has no source.
 * - audit: the researchers' edits and deletions of the session's records (before and after as the
 *   record's export row in JSON; after is empty for a deletion).
 * - consent-texts, consents, withdrawals: CONSENT_EXPORT_COLUMNS (consent.routes.ts).
 * - device-checks: the participants' pre-session checks, DEVICE_CHECK_EXPORT_COLUMNS (device-check.routes.ts).
 */
export const STUDY_EXPORT_COLUMNS = {
  messages: [...EXPORT_COLUMNS.messages, 'sessionId'],
  pixels: EXPORT_COLUMNS.pixels,
  prompts: [...EXPORT_COLUMNS.prompts, 'sessionId'],
  playback: [...EXPORT_COLUMNS.playback, 'sessionId'],
  participants: [
    'sessionId',
    'userId',
    'name',
    'email',
    'messages',
    'reactions',
    'clicks',
    'playback',
    'firstTime',
    'lastTime',
    'source',
    'invitedAt',
    'joinedAt',
    'panelIds',
    'panelIdConflicts',
  ],
  audit: ['audit_id', 'time', 'sessionId', 'kind', 'recordId', 'userId', 'email', 'name', 'before', 'after'],
  ...CONSENT_EXPORT_COLUMNS,
  ...DEVICE_CHECK_EXPORT_COLUMNS,
} as const satisfies Record<StudyExportTable, readonly string[]>;

/** One row of an archive's `table`: a cell per column; null is an empty cell. */
export type StudyExportRow<T extends StudyExportTable> = Record<
  (typeof STUDY_EXPORT_COLUMNS)[T][number],
  string | number | null
>;

/** The file name of a table in the archive. */
export const studyExportFileName = (table: StudyExportTable) => `${table}.csv` as const;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex');

/** manifest.json, the archive's last file. */
export const StudyExportManifest = z.object({
  format: z.literal(STUDY_EXPORT_FORMAT),
  /** When the export started, ISO 8601 (UTC): every row was stored before it. */
  exportedAt: z.iso.datetime(),
  /** The researcher who exported it. */
  exportedBy: z.object({ userId: z.uuid(), name: z.string(), email: z.string() }),
  /** What was exported: a group (every session in it, oldest first), or one session (groupId null). */
  exported: z.object({ groupId: z.uuid().nullable(), sessionIds: z.array(z.uuid()) }),
  /** Every other file of the archive, in its order: data rows (the header not counted), bytes, SHA-256. */
  files: z.array(
    z.object({
      name: z.string(),
      rows: z.number().int().nonnegative(),
      bytes: z.number().int().nonnegative(),
      sha256: sha256Hex,
    }),
  ),
  notes: z.array(z.string()),
  /**
   * What of the other services' data could not be had, each with its file and session (a roster
   * entry past its contract: the rows are there, without the roster's columns); everything else is
   * exported. One bad row never keeps a researcher from their data. (A database that fails breaks
   * the download off instead.)
   */
  problems: z.array(z.object({ file: z.string(), sessionId: z.uuid(), message: z.string() })),
});
export type StudyExportManifest = z.infer<typeof StudyExportManifest>;
export type StudyExportProblem = StudyExportManifest['problems'][number];

export const STUDY_EXPORT_TEXTS = {
  neither: 'Give the sessionId of a session or the groupId of a group.',
  both: 'Give a sessionId or a groupId, not both.',
} as const;

export const studyExportRoutes = defineRoutes({
  exportStudy: {
    method: 'GET',
    path: '/exportStudy',
    service: 'records',
    access: 'researcher',
    extension: true,
    produces: 'zip',
    summary: `Downloads one of the caller's sessions (sessionId), or every session of one of the caller's groups (groupId), as one ZIP archive: ${STUDY_EXPORT_TABLES.map(studyExportFileName).join(', ')} (UTF-8 CSV with a byte order mark, CRLF rows, formula-neutralised cells, as File.csv) and ${STUDY_EXPORT_MANIFEST} last, with the row count, size and SHA-256 of every file, the export time, the exporting researcher and what was exported. The spec exports one kind of one session at a time; a study's analysis needs all of it at once, verifiably. Streamed as it is read, so a session of a million records costs what a small one does; a refusal (403, 404, 400, 503) comes before the first byte as the JSON error.`,
    request: z
      .object({ sessionId: id().optional(), groupId: id().optional() })
      .superRefine(({ sessionId, groupId }, ctx) => {
        if (sessionId === undefined && groupId === undefined)
          ctx.addIssue({ code: 'custom', message: STUDY_EXPORT_TEXTS.neither });
        else if (sessionId !== undefined && groupId !== undefined)
          ctx.addIssue({ code: 'custom', message: STUDY_EXPORT_TEXTS.both });
      }),
    answer: z.string(),
  },
});
