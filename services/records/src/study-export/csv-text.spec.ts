import { parse } from 'csv-parse/sync';
import { csvWriter } from '../export/csv';
import { csvHead, csvLine } from './csv-text';

/** What csvWriter (File.csv's writer, csv-stringify) makes of `rows`. */
const written = async (columns: string[], rows: object[]): Promise<string> => {
  const writer = csvWriter(columns);
  const chunks: string[] = [];
  writer.on('data', (chunk: Buffer | string) => chunks.push(chunk.toString()));
  const done = new Promise<void>((resolve, reject) => {
    writer.on('end', resolve);
    writer.on('error', reject);
  });
  for (const row of rows) writer.write(row);
  writer.end();
  await done;
  return chunks.join('');
};

const made = (columns: string[], rows: object[]): string =>
  csvHead(columns) + rows.map((row) => csvLine(columns, row)).join('');

/** Cells a CSV writer can get wrong: quoting, formulas (OWASP's list), unicode, numbers, empties. */
const CELLS: (string | number | null | undefined)[] = [
  'plain',
  '',
  ' ',
  'a,b',
  'say "hi"',
  '"',
  'one\ntwo',
  'one\rtwo',
  'one\r\ntwo',
  '=cmd|"/c calc"!A1',
  '+1',
  '-2',
  '@x',
  '\tlead tab',
  '\rlead cr',
  '\nlead lf',
  '\uFF1Dfull-width equals',
  '\u2212minus sign',
  '|calc',
  ';=1+1',
  '   =1+1',
  '\u00A0=1+1',
  '\u200B=1+1',
  '\uFEFF-1',
  '\u202E=1+1',
  'a=b-c',
  'héllo 😀 日本語',
  "it's",
  0,
  -0,
  1,
  -1,
  0.5,
  -0.25,
  0.1 + 0.2,
  123.456,
  1e21,
  1e-7,
  5e-324,
  Number.MAX_VALUE,
  2 ** 53 + 2,
  NaN,
  Infinity,
  -Infinity,
  null,
  undefined,
];

describe('csv-text', () => {
  it('writes the same bytes as csvWriter, cell for cell', async () => {
    const rows = CELLS.map((cell, i) => ({ n: i, cell, last: 'end' }));
    const columns = ['n', 'cell', 'last'];
    expect(made(columns, rows)).toBe(await written(columns, rows));
  });

  it('writes the same bytes as csvWriter for a header alone, and for columns a row lacks', async () => {
    expect(made(['message_id', 'time'], [])).toBe(await written(['message_id', 'time'], []));
    const rows = [{ a: 'x' }, { b: 2 }, {}];
    expect(made(['a', 'b', 'c'], rows)).toBe(await written(['a', 'b', 'c'], rows));
  });

  it('round-trips through a CSV parser', () => {
    const text = made(['v', 'w', 'n'], [{ v: 'a,"b"\r\nc', w: '=1+1', n: 0.25 }]);
    expect(parse(text, { bom: true, columns: true })).toEqual([{ v: 'a,"b"\r\nc', w: "'=1+1", n: '0.25' }]);
  });
});
