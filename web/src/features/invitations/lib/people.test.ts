import type { SessionPerson } from '@uis/proto';
import { describe, expect, it } from 'vitest';
import { groupPeople, invitationsText, shortTime } from './people';
import { PARTICIPATION_TEXTS } from '../../../i18n/en/participation';

const person = (overrides: Partial<SessionPerson>): SessionPerson => ({
  email: 'ann@example.org',
  source: 'scope',
  status: 'invited',
  invitations: 0,
  invitedAt: null,
  joinedAt: null,
  panelIds: {},
  panelIdConflicts: [],
  ...overrides,
});

describe('people of a session', () => {
  it('lists the invited and the joined apart, each in the order given', () => {
    const a = person({ email: 'a@example.org' });
    const b = person({ email: 'b@example.org', status: 'joined', joinedAt: '2025-05-12T10:00:00Z' });
    const c = person({ email: 'c@example.org' });
    expect(groupPeople([a, b, c])).toEqual({ invited: [a, c], joined: [b] });
    expect(groupPeople([])).toEqual({ invited: [], joined: [] });
  });

  it('says how often and when the invitation went out', () => {
    const at = new Date(2025, 4, 12, 14, 3, 59).toISOString();
    expect(invitationsText(person({ invitations: 1, invitedAt: at }))).toBe(
      'Invited once, last 2025-05-12 14:03',
    );
    expect(invitationsText(person({ invitations: 3, invitedAt: at }))).toBe(
      'Invited 3 times, last 2025-05-12 14:03',
    );
    expect(invitationsText(person({}))).toBe(PARTICIPATION_TEXTS.noInvitationYet);
  });

  it('writes local times to the minute, and an unreadable time as it came', () => {
    expect(shortTime(new Date(2025, 0, 2, 3, 4, 5).toISOString())).toBe('2025-01-02 03:04');
    expect(shortTime('soon')).toBe('soon');
  });
});
