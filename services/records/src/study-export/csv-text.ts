import { neutralizeCell } from '../export/csv';

/**
 * The study export's CSV text, made a line at a time as plain strings: the same bytes as csvWriter
 * (File.csv's: byte order mark, header row, CRLF, RFC 4180 quoting, neutralizeCell on every text
 * cell, numbers as numbers, null and undefined as empty cells; csv-text.spec.ts compares the two).
 * Not csvWriter itself: csv-stringify makes about 7 kB of short-lived garbage a row (arrays and
 * option objects per cell: half of what a million-record export allocated), and writes numbers
 * through V8's number-to-string cache (numberText says why that matters).
 */

/** A row as the exports give it: a cell per column (ExportRow, StudyExportRow). */
export type CsvRow = object;

/** What a cell holds. */
type Cell = string | number | null | undefined;

/** A cell that must be quoted: it holds the delimiter, a quote, CR or LF. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * A number as String(number) writes it. JSON.stringify gives the same text for every finite number
 * but makes it as a new young string: String(), template literals and toString() keep each result
 * in V8's number-to-string cache, allocated straight in the old generation, so the three numbers of
 * each of a million clicks were otherwise some 50 MB of old garbage until the next full collection.
 */
const numberText = (value: number): string =>
  Number.isFinite(value) ? JSON.stringify(value) : String(value);

/** One cell as csvWriter writes it. */
function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(value);
  const text = neutralizeCell(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row of `columns`, its CRLF included. */
export function csvLine(columns: readonly string[], row: CsvRow): string {
  const cells = row as Readonly<Record<string, Cell>>;
  let line = csvCell(cells[columns[0]!]);
  for (let i = 1; i < columns.length; i++) line += `,${csvCell(cells[columns[i]!])}`;
  return `${line}\r\n`;
}

/** What a file starts with: the byte order mark (for Excel), then the header row. */
export const csvHead = (columns: readonly string[]): string =>
  `\uFEFF${csvLine(columns, Object.fromEntries(columns.map((column) => [column, column])))}`;
