import { SCOPE_MAX_EMAILS } from '@uis/proto/browser';
import { describe, expect, it } from 'vitest';
import { joinCapOf } from './join-cap';
import { joinedText } from '../../../i18n/en/participation';

describe('joinCapOf', () => {
  it('reads an empty field as no cap and a whole number as the cap', () => {
    expect(joinCapOf('')).toEqual({ cap: null });
    expect(joinCapOf('  ')).toEqual({ cap: null });
    expect(joinCapOf(' 25 ')).toEqual({ cap: 25 });
    expect(joinCapOf('1')).toEqual({ cap: 1 });
    expect(joinCapOf(String(SCOPE_MAX_EMAILS))).toEqual({ cap: SCOPE_MAX_EMAILS });
  });

  it('refuses what the server would: zero, fractions, signs, words, too many', () => {
    for (const text of ['0', '2.5', '-3', '+3', '1e2', 'ten', String(SCOPE_MAX_EMAILS + 1)]) {
      expect(joinCapOf(text)).toEqual({
        error: `Give a whole number from 1 to ${SCOPE_MAX_EMAILS}, or leave it empty for no cap.`,
      });
    }
  });
});

describe('joinedText', () => {
  it('says how many joined and the cap', () => {
    expect(joinedText(3, 50)).toBe('3 joined of at most 50');
    expect(joinedText(0, null)).toBe('0 joined, no cap');
  });
});
