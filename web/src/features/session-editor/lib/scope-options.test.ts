import { describe, expect, it } from 'vitest';
import { EVERYONE_OPTION, scopeChoices, scopeOfSelection, scopeSelection } from './scope-options';

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
