import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequireUser } from '../../../signed-in/route-guards';
import { fakeApi, ok, refused, type ApiAnswer } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { ParticipantSessions } from './participant-sessions';
import { ACCOUNT_TEXTS } from '../../../i18n/en/account';
import { COMMON_TEXTS } from '../../../i18n/en/common';

const participant = {
  id: '00000000-0000-4000-8000-0000000000bb',
  email: 'pat@example.org',
  name: 'Pat',
  type: 'participant',
};
const sessionId = '00000000-0000-4000-8000-000000000011';

function server(deleteUser: () => ApiAnswer = () => ok({ message: 'deleted' })) {
  return fakeApi({
    '/getUserFromToken': () => ok({ user: participant }),
    '/getParticipantSessions': () =>
      ok({ sessions: [{ session_id: sessionId, type: 'video', title: 'Trailer', deleteDisabled: true }] }),
    '/deleteUser': deleteUser,
    '/logout': () => ok({ message: 'bye' }),
  });
}

const renderSessions = () =>
  renderScreen(
    '/sessions',
    '/sessions',
    <RequireUser>
      <ParticipantSessions />
    </RequireUser>,
    { '/': <Here name="login" />, '/liveSession/:sessionId': <Here name="live" /> },
  );
const here = () => screen.getByTestId('here').textContent;

describe('ParticipantSessions', () => {
  beforeEach(() => {
    Cookies.set('accessToken', 'access');
    Cookies.set('refreshToken', 'refresh');
  });
  afterEach(() => {
    Cookies.remove('accessToken');
    Cookies.remove('refreshToken');
  });

  it('lists their sessions with delete disabled; one opens its live session', async () => {
    const api = server();
    renderSessions();
    const open = await screen.findByRole('button', { name: /^Trailer/ });
    expect(screen.getByText('Hello, Pat')).toBeTruthy();
    const remove = within(open.closest('li')!).getByRole<HTMLButtonElement>('button', {
      name: COMMON_TEXTS.deleteSession,
    });
    expect(remove.disabled).toBe(true);
    expect(api.to('/getParticipantSessions')[0]?.query.email).toBe('pat@example.org');

    fireEvent.click(open);
    await waitFor(() => expect(here()).toBe(`live /liveSession/:${sessionId}`));
  });

  it('deletes the account only after the confirm step, then forgets the tokens and goes to /', async () => {
    const api = server();
    renderSessions();
    fireEvent.click(await screen.findByRole('button', { name: ACCOUNT_TEXTS.deleteAccount }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.to('/deleteUser')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: ACCOUNT_TEXTS.deleteAccount }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: ACCOUNT_TEXTS.deleteConfirm }),
    );
    await waitFor(() => expect(here()).toBe('login /'));
    expect(api.to('/deleteUser').map((sent) => sent.body)).toEqual([{ email: 'pat@example.org' }]);
    expect(Cookies.get('refreshToken')).toBeUndefined();
  });

  it("toasts 'Error deleting user' and stays signed in when the deletion fails", async () => {
    server(() => refused(503, 'records is down'));
    render(<Toaster />);
    renderSessions();
    fireEvent.click(await screen.findByRole('button', { name: ACCOUNT_TEXTS.deleteAccount }));
    fireEvent.click(screen.getByRole('button', { name: ACCOUNT_TEXTS.deleteConfirm }));
    expect(await screen.findByText('Error deleting user')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(Cookies.get('refreshToken')).toBe('refresh');
  });

  it('logs out: revokes the refresh token, forgets it and goes to /', async () => {
    const api = server();
    renderSessions();
    fireEvent.click(await screen.findByRole('button', { name: ACCOUNT_TEXTS.logOut }));
    await waitFor(() => expect(here()).toBe('login /'));
    // The refresh token goes as its HttpOnly cookie, which the server clears.
    expect(api.to('/logout').map((sent) => sent.body)).toEqual([{}]);
    expect(Cookies.get('refreshToken')).toBeUndefined();
  });
});
