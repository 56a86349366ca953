/**
 * The exports' one CSV encoder (the per-tab downloads and every file of the study export), written a line at a
 * time as plain strings rather than through csv-stringify: the exports stream sessions of a million
 * records, and csv-stringify makes about 7 kB of short-lived garbage a row (arrays and option
 * objects per cell) and twice the CPU, and writes numbers through V8's number-to-string cache
 * (numberText says why that matters; docs/bench/study-export.md).
 * - RFC 4180: CRLF rows; a cell holding a comma, a quote, CR or LF is quoted, quotes doubled.
 * - Formula injection: every text cell goes through neutralizeCell. Numbers (x, y, times) are
 *   written as numbers, booleans as true / false; null and undefined as empty cells.
 * - UTF-8 without a byte order mark: R's readr and pandas read UTF-8 by default, and a mark would
 *   be part of the first column's name for pandas (Excel users import it as UTF-8; README).
 */

/** A row as the exports give it: a cell per column (ExportRow, StudyExportRow). */
export type CsvRow = object;

/** What a cell holds. */
type Cell = string | number | boolean | null | undefined;

/**
 * What a spreadsheet skips before it decides a cell is a formula: white space of any kind (NBSP,
 * line breaks, the ideographic space), zero-width characters, the byte order mark and bidirectional
 * controls. OWASP ("CSV Injection"): trim these before checking the first character.
 */
const IGNORED_START = /^[\s\u00A0\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF]+/;

/**
 * Characters that start a formula, or a DDE call, in Excel, LibreOffice or Google Sheets: = + - @,
 * tab and line breaks, | and ; (DDE and formula separators in some locales), and their full-width,
 * small and minus-sign look-alikes, which spreadsheets normalise to the ASCII ones.
 */
const FORMULA_START = /^[=+\-@\t\r\n|;\uFF1D\uFF0B\uFF0D\uFF20\uFE62\uFE63\uFE66\uFE6B\u2212]/;

/**
 * A text cell as it is written: one that could run as a formula is prefixed with ', shown as text.
 * Tab and line breaks count both ways: OWASP lists a leading one as dangerous itself.
 */
export function neutralizeCell(text: string): string {
  const risky = FORMULA_START.test(text) || FORMULA_START.test(text.replace(IGNORED_START, ''));
  return risky ? `'${text}` : text;
}

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

function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
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

/** What a file starts with: the header row. */
export const csvHead = (columns: readonly string[]): string =>
  csvLine(columns, Object.fromEntries(columns.map((column) => [column, column])));
