import { parse } from 'csv-parse/sync';
import { csvStream } from './csv-stream';

/** The bytes the exports write for `rows`, as text. */
const write = async (columns: string[], rows: object[]): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of csvStream(columns, rows)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

describe('the CSV encoder', () => {
  it('starts with a header row of the columns (no byte order mark), CRLF rows', async () => {
    expect(await write(['a', 'b'], [{ a: 1, b: 'x' }])).toBe('a,b\r\n1,x\r\n');
  });

  it('writes only a header row when there are no rows', async () => {
    expect(await write(['message_id', 'time'], [])).toBe('message_id,time\r\n');
  });

  it('quotes commas, quotes, LF and CR, doubling quotes', async () => {
    const csv = await write(['v'], [{ v: 'a,b' }, { v: 'say "hi"' }, { v: 'one\ntwo' }, { v: 'one\rtwo' }]);
    expect(csv).toBe('v\r\n"a,b"\r\n"say ""hi"""\r\n"one\ntwo"\r\n"one\rtwo"\r\n');
  });

  it.each([
    ['=cmd|"/c calc"!A1', `"'=cmd|""/c calc""!A1"`],
    ['+1', `'+1`],
    ['-2', `'-2`],
    ['@x', `'@x`],
    ['\tlead tab', `'\tlead tab`],
    ['\rlead cr', `"'\rlead cr"`],
    ['\nlead lf', `"'\nlead lf"`],
    ['\uFF1Dfull-width equals', `'\uFF1Dfull-width equals`],
    ['\uFE62small plus', `'\uFE62small plus`],
    ['\u2212minus sign', `'\u2212minus sign`],
    ['|calc', `'|calc`],
    [';=1+1', `';=1+1`],
  ])('neutralises the formula-looking cell %j with a leading quote', async (cell, written) => {
    expect(await write(['v'], [{ v: cell }])).toBe(`v\r\n${written}\r\n`);
  });

  // OWASP: spreadsheets skip these before reading the first character, so the check trims them too.
  it.each([
    ['spaces', '   =1+1'],
    ['NBSP', '\u00A0=1+1'],
    ['a newline', '\n=1+1'],
    ['a CR LF', '\r\n@SUM(A1)'],
    ['zero-width space', '\u200B=1+1'],
    ['zero-width joiner', '\u200D+1'],
    ['byte order mark', '\uFEFF-1'],
    ['right-to-left override', '\u202E=1+1'],
    ['left-to-right isolate', '\u2066@x'],
    ['ideographic space', '\u3000\uFF1D1'],
    ['a tab', '\t=1'],
  ])('neutralises a formula behind %s', async (_, cell) => {
    const [, written] = (await write(['v'], [{ v: cell }])).split('\r\n');
    expect(written?.replace(/^"/, '').startsWith("'")).toBe(true);
  });

  it('leaves cells with those characters later on alone, and numbers as numbers', async () => {
    expect(await write(['v', 'n'], [{ v: 'a=b-c', n: 0.25 }])).toBe('v,n\r\na=b-c,0.25\r\n');
  });

  it('writes every number as String(number) does', async () => {
    const numbers = [
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
      NaN,
      Infinity,
      -Infinity,
    ];
    const written = await write(
      ['n'],
      numbers.map((n) => ({ n })),
    );
    expect(written).toBe(`n\r\n${numbers.map((n) => `${String(n)}\r\n`).join('')}`);
  });

  it('writes a header alone for no rows, and empty cells for the columns a row lacks', async () => {
    expect(await write(['a', 'b', 'c'], [{ a: 'x' }, { b: 2 }, {}])).toBe('a,b,c\r\nx,,\r\n,2,\r\n,,\r\n');
  });

  it('writes null and undefined as empty cells, and unicode as is', async () => {
    expect(await write(['a', 'b', 'c'], [{ a: null, c: 'héllo 😀 日本語' }])).toBe(
      'a,b,c\r\n,,héllo 😀 日本語\r\n',
    );
  });

  it('writes booleans as true and false', async () => {
    expect(await write(['a', 'b'], [{ a: true, b: false }])).toBe('a,b\r\ntrue,false\r\n');
  });

  it('round-trips through a CSV parser', async () => {
    const rows = [{ v: 'a,"b"\r\nc', w: '=1+1' }];
    const parsed = parse(await write(['v', 'w'], rows), { columns: true }) as unknown;
    expect(parsed).toEqual([{ v: 'a,"b"\r\nc', w: "'=1+1" }]);
  });
});
