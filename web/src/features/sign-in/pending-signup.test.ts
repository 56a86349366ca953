import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MAGIC_LINK_TTL_MINUTES } from '@uis/proto/browser';
import { clearPendingSignup, pendingSignupFor, savePendingSignup } from './pending-signup';

describe('pending sign-up', () => {
  beforeEach(() => localStorage.clear());

  it('is found for its own e-mail only, whatever the case, until cleared', () => {
    const pending = { email: 'Pat@Example.org', name: 'Pat', type: 'participant' } as const;
    savePendingSignup(pending);
    expect(pendingSignupFor('pat@example.org')).toEqual(pending);
    expect(pendingSignupFor('other@example.org')).toBeNull();
    clearPendingSignup();
    expect(pendingSignupFor('pat@example.org')).toBeNull();
  });

  it('is forgotten once the link it waits for has expired', () => {
    vi.useFakeTimers();
    savePendingSignup({ email: 'pat@example.org', name: 'Pat', type: 'participant' });
    vi.advanceTimersByTime(MAGIC_LINK_TTL_MINUTES * 60_000 - 1);
    expect(pendingSignupFor('pat@example.org')).not.toBeNull();
    vi.advanceTimersByTime(2);
    expect(pendingSignupFor('pat@example.org')).toBeNull();
  });

  it('ignores what is not a sign-up (an old or tampered entry)', () => {
    const until = Date.now() + 60_000;
    for (const stored of [
      'not json',
      'null',
      JSON.stringify({ email: 'pat@example.org', name: 'Pat', until }),
      JSON.stringify({ email: 'pat@example.org', name: '', type: 'participant', until }),
      JSON.stringify({ email: 'pat@example.org', name: 'Pat', type: 'admin', until }),
      JSON.stringify({ email: 'pat@example.org', name: 'Pat', type: 'participant', until: 'later' }),
    ]) {
      localStorage.setItem('uis.pendingSignup', stored);
      expect(pendingSignupFor('pat@example.org')).toBeNull();
    }
  });

  it('does without storage when the browser refuses it', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(() => savePendingSignup({ email: 'a@example.org', name: 'A', type: 'researcher' })).not.toThrow();
    expect(pendingSignupFor('a@example.org')).toBeNull();
  });
});
