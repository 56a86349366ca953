import { stringify, type Stringifier } from 'csv-stringify';

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

/**
 * A CSV writer for an export: a header row of `columns`, then one row per object written to it.
 * - RFC 4180: CRLF rows; a cell holding a comma, a quote, CR or LF is quoted, quotes doubled.
 * - Formula injection: every text cell goes through neutralizeCell. Numbers (x, y, times) are
 *   written as numbers.
 * - A UTF-8 byte order mark, so Excel reads names and messages in any script correctly.
 */
export const csvWriter = (columns: readonly string[]): Stringifier =>
  stringify({
    header: true,
    columns: [...columns],
    bom: true,
    record_delimiter: 'windows',
    // Giving record_delimiter turns this off by default; a lone LF or CR in a cell must still be quoted.
    quote_record_delimiter: true,
    cast: { string: neutralizeCell },
  });
