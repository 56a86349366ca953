import { noneMatch, parseRange, rangeStillValid } from './byte-range';

describe('parseRange', () => {
  const size = 1000;

  it('answers the whole file without a Range header', () => {
    expect(parseRange(undefined, size)).toEqual({ kind: 'whole' });
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=0-0', 0, 0],
    ['bytes=500-599', 500, 599],
    ['bytes=900-', 900, 999],
    ['bytes=0-', 0, 999],
    ['bytes=990-5000', 990, 999],
    ['bytes=999-999', 999, 999],
    ['bytes=-100', 900, 999],
    ['bytes=-1', 999, 999],
    ['bytes=-5000', 0, 999],
    ['Bytes = 10-19 ', 10, 19],
    ['bytes=0-99999999999999999999', 0, 999],
  ])('%s -> %i..%i', (header, start, end) => {
    expect(parseRange(header, size)).toEqual({ kind: 'range', start, end });
  });

  it.each(['bytes=1000-', 'bytes=1000-1010', 'bytes=5000-6000', 'bytes=-0', 'bytes=99999999999999999999-'])(
    '%s is unsatisfiable',
    (header) => {
      expect(parseRange(header, size)).toEqual({ kind: 'unsatisfiable' });
    },
  );

  it.each([
    '',
    'bytes=',
    'bytes=-',
    'bytes=abc',
    'bytes=5-2',
    'items=0-10',
    'bytes=1-2-3',
    'bytes=0-1,5-6',
    '0-10',
  ])('ignores %j (the whole file, as RFC 9110 says)', (header) => {
    expect(parseRange(header, size)).toEqual({ kind: 'whole' });
  });

  it('finds nothing to serve in an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-10', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('conditional headers', () => {
  const etag = 'abc123';

  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(noneMatch('"abc123"', etag)).toBe(true);
    expect(noneMatch('W/"abc123"', etag)).toBe(true);
    expect(noneMatch('"x", "abc123"', etag)).toBe(true);
    expect(noneMatch('*', etag)).toBe(true);
    expect(noneMatch('"other"', etag)).toBe(false);
    expect(noneMatch('abc123', etag)).toBe(false);
    expect(noneMatch(undefined, etag)).toBe(false);
  });

  it('honours a range only when If-Range names this etag strongly', () => {
    expect(rangeStillValid(undefined, etag)).toBe(true);
    expect(rangeStillValid('"abc123"', etag)).toBe(true);
    expect(rangeStillValid('W/"abc123"', etag)).toBe(false);
    expect(rangeStillValid('"other"', etag)).toBe(false);
    expect(rangeStillValid('Sat, 22 Nov 2025 00:00:00 GMT', etag)).toBe(false);
  });
});
