import { describe, expect, it } from 'vitest';
import {
  EVERYONE_OPTION,
  isEmailList,
  normalEmail,
  notAddedText,
  parseEmailList,
  scopeChoices,
  scopeOfSelection,
  scopeSelection,
  withEmails,
} from './scope-options';

const participants = [
  { email: 'ann@example.com', name: 'Ann' },
  { email: 'bob@example.com', name: '' },
];
const ann = { value: 'ann@example.com', label: 'Ann (ann@example.com)' };
const bob = { value: 'bob@example.com', label: 'bob@example.com' };

describe('scope picker', () => {
  it('offers Everyone first, then the participants', () => {
    expect(scopeChoices(participants)).toEqual([EVERYONE_OPTION, ann, bob]);
  });

  it('shows Everyone by default and stored e-mails, known or not', () => {
    expect(scopeSelection('Everyone', participants)).toEqual([EVERYONE_OPTION]);
    expect(scopeSelection(['ann@example.com', 'gone@example.com'], participants)).toEqual([
      ann,
      { value: 'gone@example.com', label: 'gone@example.com' },
    ]);
  });

  it('replaces Everyone by the first name picked, and names by Everyone', () => {
    expect(scopeOfSelection([EVERYONE_OPTION, ann], 'Everyone')).toEqual(['ann@example.com']);
    expect(scopeOfSelection([ann, bob, EVERYONE_OPTION], ['ann@example.com', 'bob@example.com'])).toBe(
      'Everyone',
    );
    expect(scopeOfSelection([ann, bob], ['ann@example.com'])).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('keeps an emptied selection empty (nobody)', () => {
    expect(scopeOfSelection([], ['ann@example.com'])).toEqual([]);
    expect(scopeOfSelection([EVERYONE_OPTION], 'Everyone')).toBe('Everyone');
  });
});

describe('any e-mail in the scope', () => {
  it('takes an address as the server stores it, and refuses what the server refuses', () => {
    expect(normalEmail('  New.Person+tag@Uni.EDU ')).toBe('new.person+tag@uni.edu');
    expect(normalEmail("o'neil@example.co.uk")).toBe("o'neil@example.co.uk");
    for (const text of [
      '',
      'ann',
      'ann@',
      '@uni.edu',
      'ann@uni',
      'ann@uni.e',
      'a b@uni.edu',
      '.ann@uni.edu',
      'ann..b@uni.edu',
      'ann.@uni.edu',
      'ann@-uni.edu',
    ]) {
      expect(normalEmail(text)).toBeNull();
    }
    expect(normalEmail(`${'a'.repeat(247)}@uni.edu`)).toBeNull();
  });

  it('reads a pasted list separated by commas, semicolons, spaces or lines, each address once', () => {
    expect(parseEmailList('ann@uni.edu, Bob@uni.edu;cy@uni.edu\n dee@uni.edu\r\n\tann@uni.edu ,,')).toEqual({
      emails: ['ann@uni.edu', 'bob@uni.edu', 'cy@uni.edu', 'dee@uni.edu'],
      invalid: [],
    });
  });

  it("reads mail clients' spellings and reports what is not an address", () => {
    expect(parseEmailList('Ann Lee <ann@uni.edu>, mailto:bob@uni.edu "cy@uni.edu" oops@')).toEqual({
      emails: ['ann@uni.edu', 'bob@uni.edu', 'cy@uni.edu'],
      invalid: ['Ann', 'Lee', 'oops@'],
    });
  });

  it('tells a list from a single entry', () => {
    expect(isEmailList(' ann@uni.edu ')).toBe(false);
    expect(isEmailList('ann@uni.edu bob@uni.edu')).toBe(true);
    expect(isEmailList('ann@uni.edu,')).toBe(true);
    expect(isEmailList('ann@uni.edu\nbob@uni.edu')).toBe(true);
  });

  it('adds addresses after those named, replaces Everyone, and keeps each once', () => {
    expect(withEmails(['ann@uni.edu'], ['bob@uni.edu', 'ann@uni.edu'])).toEqual([
      'ann@uni.edu',
      'bob@uni.edu',
    ]);
    expect(withEmails('Everyone', ['bob@uni.edu'])).toEqual(['bob@uni.edu']);
    expect(withEmails('Everyone', [])).toBe('Everyone');
    expect(withEmails([], [])).toEqual([]);
  });

  it('says which entries were not added, naming the first five', () => {
    expect(notAddedText(['ann'])).toBe('“ann” is not an e-mail address, so it was not added.');
    expect(notAddedText(['a', 'b'])).toBe('“a”, “b” are not e-mail addresses, so they were not added.');
    expect(notAddedText(['1', '2', '3', '4', '5', '6', '7'])).toBe(
      '“1”, “2”, “3”, “4”, “5” and 2 more are not e-mail addresses, so they were not added.',
    );
  });
});
