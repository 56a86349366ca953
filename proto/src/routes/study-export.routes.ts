import { z } from 'zod';
import { id } from '../fields';
import { defineRoutes } from '../route';
import {
  DATA_EXPORT_TABLES,
  EXPORT_CODEBOOK_FILE,
  EXPORT_TABLE_NAMES,
  IDENTIFYING_EXPORT_TABLE,
  exportColumns,
  exportTableFile,
  type ExportTable,
  type ExportTableRow,
} from '../export-codebook';

/**
 * The study export: a whole session, or every session of a group, as one ZIP archive. Its layout
 * (file names, the columns of each CSV, the manifest) is part of the wire, so it lives here.
 */

/**
 * The files of an archive, in the order they are written: a CSV per table of EXPORT_TABLES
 * (export-codebook.ts: their columns, types and meanings), identifiers.csv only when asked for, then
 * codebook.csv, consent-texts.json and manifest.json last.
 */
export const STUDY_EXPORT_TABLES = EXPORT_TABLE_NAMES;
export type StudyExportTable = ExportTable;

/** The archive's last file: what it holds, who exported it, and the SHA-256 of every other file. */
export const STUDY_EXPORT_MANIFEST = 'manifest.json';
/**
 * Every consent text exactly as participants were shown it (JSON): the CSV's cells are neutralised
 * for spreadsheets (a leading ' before =, +, - or @), so their SHA-256 is checked against this file.
 */
export const STUDY_EXPORT_CONSENT_TEXTS = 'consent-texts.json';
/** What the manifest says of the files whose meaning is not plain from their name. */
export const STUDY_EXPORT_NOTES = [
  `${EXPORT_CODEBOOK_FILE} lists every file and column with its type (text, integer, number, boolean, timestamp) and meaning.`,
  'Every CSV is UTF-8 without a byte order mark, with CRLF rows. Wall-clock instants are ISO 8601 in UTC with milliseconds (columns ending _at); video positions and durations are whole milliseconds (columns ending _ms); booleans are true or false; an empty cell is a missing value.',
  'People are participant_ids (P- and 12 hex digits), the same in every export this researcher makes. E-mails, names, account ids and panel ids are only in identifiers.csv, in an export made with identifiers.',
  `${STUDY_EXPORT_CONSENT_TEXTS} holds every consent text exactly as shown, with its version and SHA-256: hash the text there to verify it. consent-texts.csv holds the same texts for spreadsheets.`,
  "A text cell starting with =, +, -, @, tab, CR, LF, | or ; (after any spaces) has a ' put before it, so no spreadsheet runs it as a formula; remove that ' to get the text as written.",
] as const;
/** `format` of the manifest: changes when a column or a file changes meaning. */
export const STUDY_EXPORT_FORMAT = 'uis-study-export/2';

/**
 * The kinds of researcher change the audit log records, named after the route that made them:
 * an edited message's text, a deleted message, a deleted click.
 */
export const AUDIT_KINDS = ['editMessage', 'deleteMessage', 'deletePixel'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** The columns of each CSV (EXPORT_TABLES'), by name; identifiers.csv adds a panel_<NAME> column per panel id. */
export const STUDY_EXPORT_COLUMNS = Object.fromEntries(
  EXPORT_TABLE_NAMES.map((name) => [name, exportColumns(name)]),
) as Record<StudyExportTable, readonly string[]>;

/** One row of an archive's `table`: a cell per column; null is an empty cell. */
export type StudyExportRow<T extends StudyExportTable> = ExportTableRow<T>;

/** The file name of a table in the archive. */
export const studyExportFileName = exportTableFile;

/** An export's `identifiers` option: leave them out unless asked (true, or the text 'true' of a query). */
export const includeIdentifiers = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
    .transform((value) => value === true || value === 'true')
    .optional();

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex');

/** manifest.json, the archive's last file. */
export const StudyExportManifest = z.object({
  format: z.literal(STUDY_EXPORT_FORMAT),
  /** When the export started, ISO 8601 (UTC): every row was stored before it. */
  exportedAt: z.iso.datetime(),
  /** The researcher who exported it. */
  exportedBy: z.object({ userId: z.uuid(), name: z.string(), email: z.string() }),
  /** What was exported: a group (every session in it, oldest first), or one session (groupId null). */
  exported: z.object({
    groupId: z.uuid().nullable(),
    sessionIds: z.array(z.uuid()),
    /** Whether identifiers.csv is in the archive (the researcher asked for it). */
    identifiers: z.boolean(),
  }),
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
    summary: `Downloads one of the caller's sessions (sessionId), or every session of one of the caller's groups (groupId), as one ZIP archive: ${DATA_EXPORT_TABLES.map(studyExportFileName).join(', ')}, ${exportTableFile(IDENTIFYING_EXPORT_TABLE)} only with identifiers=true (e-mails, names, account ids, a column per panel id; left out by default), ${EXPORT_CODEBOOK_FILE} (every file and column: type and meaning), ${STUDY_EXPORT_CONSENT_TEXTS}, and ${STUDY_EXPORT_MANIFEST} last, with the row count, size and SHA-256 of every file, the export time, the exporting researcher and what was exported. CSVs are UTF-8 without a byte order mark, CRLF rows, formula-neutralised cells; people are pseudonymous participant_ids; instants are ISO 8601 UTC (\`_at\`), video positions and durations whole milliseconds (\`_ms\`). The spec exports one kind of one session at a time; a study's analysis needs all of it at once, verifiably. Streamed as it is read, so a session of a million records costs what a small one does; a refusal (403, 404, 400, 503) comes before the first byte as the JSON error.`,
    request: z
      .object({ sessionId: id().optional(), groupId: id().optional(), identifiers: includeIdentifiers() })
      .superRefine(({ sessionId, groupId }, ctx) => {
        if (sessionId === undefined && groupId === undefined)
          ctx.addIssue({ code: 'custom', message: STUDY_EXPORT_TEXTS.neither });
        else if (sessionId !== undefined && groupId !== undefined)
          ctx.addIssue({ code: 'custom', message: STUDY_EXPORT_TEXTS.both });
      }),
    answer: z.string(),
  },
});
