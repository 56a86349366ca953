import {
  EXPORT_CODEBOOK_COLUMNS,
  EXPORT_CODEBOOK_FILE,
  EXPORT_TABLES,
  exportTableFile,
  type ExportColumnDef,
  type ExportTable,
} from '@uis/proto';

/** codebook.csv's own columns, so that it describes itself as it does every other file. */
const CODEBOOK_COLUMNS: readonly ExportColumnDef[] = [
  { name: 'file', type: 'text', nullable: false, meaning: 'The file the column is in.' },
  { name: 'column', type: 'text', nullable: false, meaning: 'The column’s name in its header row.' },
  {
    name: 'type',
    type: 'text',
    nullable: false,
    meaning: 'text, integer, number, boolean or timestamp (ISO 8601 text, UTC).',
  },
  {
    name: 'nullable',
    type: 'boolean',
    nullable: false,
    meaning: 'Whether a cell of it may be empty (a missing value).',
  },
  { name: 'meaning', type: 'text', nullable: false, meaning: 'What it holds.' },
];
const CODEBOOK_ROW = 'One column of one file of the export.';

/** The files of an archive with their columns, as the codebook describes them. */
export type ArchivedTables = readonly { table: ExportTable; columns: readonly ExportColumnDef[] }[];

const describedFiles = (tables: ArchivedTables) => [
  ...tables.map(({ table, columns }) => ({
    file: exportTableFile(table),
    row: EXPORT_TABLES[table].row,
    columns,
  })),
  { file: EXPORT_CODEBOOK_FILE, row: CODEBOOK_ROW, columns: CODEBOOK_COLUMNS },
];

/** codebook.csv's columns and rows: one per column of every CSV of the archive, its own included. */
export function codebookCsv(tables: ArchivedTables) {
  const rows = describedFiles(tables).flatMap(({ file, columns }) =>
    columns.map(({ name, type, nullable, meaning }) => ({ file, column: name, type, nullable, meaning })),
  );
  return { file: EXPORT_CODEBOOK_FILE, columns: EXPORT_CODEBOOK_COLUMNS, rows };
}

/** codebook.md: the same, for reading (what a row of each file is, then a table of its columns). */
export function codebookMarkdown(tables: ArchivedTables, conventions: readonly string[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const files = describedFiles(tables).map(({ file, row, columns }) =>
    [
      `## ${file}`,
      '',
      row,
      '',
      '| column | type | may be empty | meaning |',
      '|---|---|---|---|',
      ...columns.map(
        (c) => `| \`${c.name}\` | ${c.type} | ${c.nullable ? 'yes' : 'no'} | ${cell(c.meaning)} |`,
      ),
      '',
    ].join('\n'),
  );
  return ['# Codebook', '', ...conventions.map((note) => `- ${note}`), '', ...files].join('\n');
}
