import { stringify, type Stringifier } from 'csv-stringify';

/** What csv-stringify's escape_formulas prefixes with ' (it also covers the full-width forms). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A CSV writer for an export: a header row of `columns`, then one row per object written to it.
 * - RFC 4180: CRLF rows; a cell holding a comma, a quote, CR or LF is quoted, quotes doubled.
 * - Formula injection (OWASP "CSV Injection"): a text cell starting with = + - @ tab or CR gets a
 *   leading ' so a spreadsheet shows it as text instead of running it, and is quoted as well.
 *   Numbers (x, y, times) are written as numbers.
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
    escape_formulas: true,
    quoted_match: FORMULA_START,
  });
