import { describe, expect, it } from 'vitest';
import { signupInviteOf, signupState } from './signup-invite';

describe('signupInviteOf', () => {
  it('reads back the invite that signupState stored', () => {
    const invite = { email: 'new@example.org', token: 'abc' };
    expect(signupInviteOf(signupState(invite))).toEqual(invite);
  });

  it('finds no invite in empty, foreign or malformed history state', () => {
    for (const state of [
      null,
      undefined,
      'text',
      {},
      { other: 1 },
      { signupInvite: null },
      { signupInvite: { email: 'a@b.c' } },
      { signupInvite: { email: '', token: 'abc' } },
      { signupInvite: { email: 'a@b.c', token: 42 } },
    ]) {
      expect(signupInviteOf(state)).toBeNull();
    }
  });
});
