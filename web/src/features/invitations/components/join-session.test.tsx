import { fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequireUser } from '../../../signed-in/route-guards';
import { JoinPage } from '../../../pages/join-page';
import { JOIN_SESSION_TEXTS } from '../../../i18n/en/join-session';
import { fakeApi, ok, refused, type ApiHandler } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';

const participant = {
  user: {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'pat@example.org',
    name: 'Pat',
    type: 'participant',
  },
};

function open(url: string, joinSession: ApiHandler) {
  const server = fakeApi({ '/getUserFromToken': () => ok(participant), '/joinSession': joinSession });
  renderScreen(
    url,
    '/join/:token',
    <RequireUser>
      <JoinPage />
    </RequireUser>,
    { '/liveSession/:sessionId': <Here name="live" />, '/sessions': <Here name="sessions" /> },
  );
  return server;
}

describe('the join page', () => {
  beforeEach(() => Cookies.set('accessToken', 'a', { path: '/' }));
  afterEach(() => Cookies.remove('accessToken', { path: '/' }));

  it('asks first: following the link tells its researcher nothing until the person joins', async () => {
    const server = open('/join/tok-1?PROLIFIC_PID=abc123', () => ok({ sessionId: 's-1' }));
    expect(await screen.findByRole('heading', { name: JOIN_SESSION_TEXTS.heading })).toBeTruthy();
    expect(screen.getByText(JOIN_SESSION_TEXTS.body)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: JOIN_SESSION_TEXTS.notNow }));
    expect(screen.getByTestId('here').textContent).toBe('sessions /sessions');
    expect(server.to('/joinSession')).toEqual([]);
  });

  it("joins once with the link's panel ids, then opens the live session in its place", async () => {
    const server = open('/join/tok-1?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9&bad-name=1', () =>
      ok({ sessionId: 's-1' }),
    );
    fireEvent.click(await screen.findByRole('button', { name: JOIN_SESSION_TEXTS.join }));
    expect(await screen.findByText('Joining the session…')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('here').textContent).toBe('live /liveSession/:s-1'));
    expect(server.to('/joinSession').map((request) => request.body)).toEqual([
      { token: 'tok-1', panelIds: { PROLIFIC_PID: 'abc123', STUDY_ID: 's1', SESSION_ID: 'x9' } },
    ]);
  });

  it("says in the server's words why a revoked link did not work, with the way back", async () => {
    open('/join/old', () => refused(404, 'This join link does not exist or was revoked.', 'NOT_FOUND'));
    fireEvent.click(await screen.findByRole('button', { name: JOIN_SESSION_TEXTS.join }));
    expect(await screen.findByRole('heading', { name: 'You could not join this session' })).toBeTruthy();
    expect(screen.getByText('This join link does not exist or was revoked.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Back to your sessions' }));
    expect(screen.getByTestId('here').textContent).toBe('sessions /sessions');
  });

  it('offers another try after too many attempts, and joins then', async () => {
    let calls = 0;
    const server = open('/join/tok-1', () =>
      ++calls === 1
        ? refused(429, 'Too many attempts. Please wait a minute.', 'RATE_LIMITED')
        : ok({ sessionId: 's-1' }),
    );
    fireEvent.click(await screen.findByRole('button', { name: JOIN_SESSION_TEXTS.join }));
    expect(await screen.findByText('Too many attempts. Please wait a minute.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('here').textContent).toBe('live /liveSession/:s-1'));
    expect(server.to('/joinSession')).toHaveLength(2);
  });
});
