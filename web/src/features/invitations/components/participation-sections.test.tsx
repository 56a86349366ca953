import type { JoinLink, SessionPerson } from '@uis/proto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { fakeApi, ok, refused, type ApiHandler } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { ParticipationSections } from './participation-sections';
import { inviteToText, PARTICIPATION_TEXTS } from '../../../i18n/en/participation';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';

const invited: SessionPerson = {
  email: 'new@uni.edu',
  source: 'scope',
  status: 'invited',
  invitations: 1,
  invitedAt: new Date(2025, 4, 12, 14, 3).toISOString(),
  joinedAt: null,
  panelIds: {},
  panelIdConflicts: [],
};
const joined: SessionPerson = {
  email: 'pat@uni.edu',
  source: 'link',
  status: 'joined',
  invitations: 0,
  invitedAt: null,
  joinedAt: new Date(2025, 4, 12, 15, 30).toISOString(),
  panelIds: { PROLIFIC_PID: 'abc123' },
  panelIdConflicts: [],
};

function setup(handlers: Record<string, ApiHandler>, scope: 'Everyone' | string[] = ['new@uni.edu']) {
  const server = fakeApi({
    '/getSessionPeople': () => ok({ people: [invited, joined] }),
    '/getJoinLink': () => ok({ joinLink: null }),
    ...handlers,
  });
  renderWithApi(<ParticipationSections sessionId={sessionId} scope={scope} />);
  return server;
}

describe('People', () => {
  it('lists the invited and the joined apart, with panel ids and how they came', async () => {
    setup({});
    const invitedList = await screen.findByRole('list', { name: /Invited/ });
    expect(within(invitedList).getByText('new@uni.edu')).toBeTruthy();
    expect(within(invitedList).getByText('Invited once, last 2025-05-12 14:03')).toBeTruthy();
    const joinedList = screen.getByRole('list', { name: /Joined/ });
    expect(within(joinedList).getByText('pat@uni.edu')).toBeTruthy();
    expect(within(joinedList).getByText('Joined 2025-05-12 15:30 · Join link')).toBeTruthy();
    const ids = within(joinedList).getByLabelText('Panel ids of pat@uni.edu');
    expect(ids.textContent).toBe('PROLIFIC_PIDabc123');
  });

  it('re-sends an invitation, toasts it, and shows a refusal beside the person', async () => {
    const success = vi.spyOn(notify, 'success');
    const error = vi.spyOn(notify, 'error');
    let calls = 0;
    const server = setup({
      '/resendInvitation': () =>
        ++calls === 1
          ? ok({ message: 'Invitation sent.' })
          : refused(429, 'At most 3 invitations per address and session in an hour.', 'RATE_LIMITED'),
    });
    const resend = await screen.findByRole('button', {
      name: inviteToText(PARTICIPATION_TEXTS.resendInvitation, 'new@uni.edu'),
    });
    fireEvent.click(resend);
    await waitFor(() => expect(success).toHaveBeenCalledWith('Invitation sent to new@uni.edu.'));
    expect(server.to('/resendInvitation').map((request) => request.body)).toEqual([
      { sessionId, email: 'new@uni.edu' },
    ]);
    // The list is read again after each re-send.
    await waitFor(() => expect(server.to('/getSessionPeople')).toHaveLength(2));
    fireEvent.click(
      screen.getByRole('button', { name: inviteToText(PARTICIPATION_TEXTS.resendInvitation, 'new@uni.edu') }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'At most 3 invitations per address and session in an hour.',
    );
    expect(error).toHaveBeenCalledWith(
      PARTICIPATION_TEXTS.invitationNotSent,
      'At most 3 invitations per address and session in an hour.',
    );
  });

  it('explains an empty list for Everyone', async () => {
    setup({ '/getSessionPeople': () => ok({ people: [] }) }, 'Everyone');
    expect(await screen.findByText(/Scope is Everyone/)).toBeTruthy();
  });
});

describe('Join link', () => {
  const link = (overrides: Partial<JoinLink> = {}): JoinLink => ({
    token: 'tok-1',
    maxParticipants: 2,
    joined: 1,
    createdAt: '2025-05-12T10:00:00Z',
    ...overrides,
  });

  it('makes a link with a cap, then shows its address and who joined', async () => {
    let current: JoinLink | null = null;
    const server = setup({
      '/getJoinLink': () => ok({ joinLink: current }),
      '/createJoinLink': () => {
        current = link({ joined: 0 });
        return ok({ joinLink: current });
      },
    });
    const cap = await screen.findByLabelText('Most participants (optional)');
    fireEvent.change(cap, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make a join link' }));
    expect(screen.getByRole('alert').textContent).toMatch(/^Give a whole number from 1 to/);
    expect(server.to('/createJoinLink')).toHaveLength(0);

    fireEvent.change(cap, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make a join link' }));
    const address = await screen.findByLabelText<HTMLInputElement>(PARTICIPATION_TEXTS.linkToShare);
    expect(address.value).toBe(`${window.location.origin}/join/tok-1`);
    expect(server.to('/createJoinLink').map((request) => request.body)).toEqual([
      { sessionId, maxParticipants: 2 },
    ]);
    expect(screen.getByText('0 joined of at most 2')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>(PARTICIPATION_TEXTS.linkForProlific).value).toBe(
      `${window.location.origin}/join/tok-1?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
    );
  });

  it('revokes only after the confirm, and makes a new link with the same cap', async () => {
    let current: JoinLink | null = link();
    const server = setup({
      '/getJoinLink': () => ok({ joinLink: current }),
      '/createJoinLink': () => ok({ joinLink: (current = link({ token: 'tok-2', joined: 0 })) }),
      '/revokeJoinLink': () => {
        current = null;
        return ok({ message: 'Revoked.' });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New link' }));
    fireEvent.click(screen.getByRole('button', { name: PARTICIPATION_TEXTS.makeNewLink }));
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>(PARTICIPATION_TEXTS.linkToShare).value).toBe(
        `${window.location.origin}/join/tok-2`,
      ),
    );
    expect(server.to('/createJoinLink').map((request) => request.body)).toEqual([
      { sessionId, maxParticipants: 2 },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(server.to('/revokeJoinLink')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    fireEvent.click(screen.getByRole('button', { name: PARTICIPATION_TEXTS.revokeLink }));
    expect(await screen.findByRole('button', { name: 'Make a join link' })).toBeTruthy();
    expect(server.to('/revokeJoinLink').map((request) => request.body)).toEqual([{ sessionId }]);
  });
});
