import type { z } from 'zod';
import { CLOCK_TIME_FORMAT_MESSAGE, clockTime, formatClockTime, parseClockTime } from '../src/clock';

/** The messages of a failed parse, by dotted path ('' for the root). */
const issuesOf = (schema: z.ZodType, input: unknown): Record<string, string> => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('clock times (hh:mm:ss)', () => {
  it('parses hh:mm:ss into seconds', () => {
    expect(parseClockTime('01:02:03')).toBe(3723);
    expect(parseClockTime('00:00:00')).toBe(0);
    expect(parseClockTime('0:00:59')).toBe(59);
    expect(parseClockTime(' 10:00:00 ')).toBe(36_000);
    expect(parseClockTime('100:00:01')).toBe(360_001);
  });

  it.each(['', '1:2:3', '01:60:00', '01:00:60', '01:02', '01-02-03', 'aa:bb:cc', '-01:00:00', '01:02:03.5'])(
    'refuses %j',
    (text) => {
      expect(parseClockTime(text)).toBeNull();
      expect(issuesOf(clockTime(), text)).toEqual({ '': CLOCK_TIME_FORMAT_MESSAGE });
    },
  );

  it('formats seconds as hh:mm:ss, dropping fractions', () => {
    expect(formatClockTime(3723)).toBe('01:02:03');
    expect(formatClockTime(0)).toBe('00:00:00');
    expect(formatClockTime(59.9)).toBe('00:00:59');
    expect(formatClockTime(360_001)).toBe('100:00:01');
  });

  it('refuses to format a negative or non-finite number', () => {
    expect(() => formatClockTime(-1)).toThrow(RangeError);
    expect(() => formatClockTime(Number.NaN)).toThrow(RangeError);
    expect(() => formatClockTime(Infinity)).toThrow(RangeError);
  });

  it('round-trips', () => {
    for (const seconds of [0, 1, 59, 60, 61, 3599, 3600, 3723, 86_399, 86_400, 359_999]) {
      expect(parseClockTime(formatClockTime(seconds))).toBe(seconds);
    }
    for (const text of ['00:00:00', '01:02:03', '23:59:59', '99:59:59']) {
      expect(formatClockTime(parseClockTime(text)!)).toBe(text);
    }
  });

  it('is a zod field that turns text into seconds', () => {
    expect(clockTime().parse('00:01:30')).toBe(90);
    expect(issuesOf(clockTime(), 90)).toEqual({ '': 'must be text' });
    expect(issuesOf(clockTime(), undefined)).toEqual({ '': 'This field must not be empty' });
  });
});
