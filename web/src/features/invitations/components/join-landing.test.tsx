import { fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { JoinPage } from '../../../pages/join-page';
import {
  JOIN_LANDING_TEXTS,
  JOIN_SESSION_PAGE_TEXTS,
  WHAT_HAPPENS_BY_TYPE,
} from '../../../i18n/en/join-session';
import { fakeApi, ok, refused, type ApiHandler } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';

const pseudonym = {
  user: {
    id: '00000000-0000-4000-8000-000000000002',
    email: 'p-abc@participant.invalid',
    name: 'Participant ABCD',
    type: 'participant',
  },
};

/** The join link opened signed out, as a panel's participant does. */
function open(url: string, handlers: Record<string, ApiHandler>) {
  const server = fakeApi({
    '/getJoinLinkInfo': () => ok({ title: 'Ad viewing', type: 'video', state: 'live' }),
    // The server sets the cookies: the signed-in marker stands for them here.
    '/enterThroughLink': () => {
      Cookies.set('accessToken', 'a', { path: '/' });
      return ok({ accessToken: 'a', refreshToken: 'r' });
    },
    '/getUserFromToken': () => ok(pseudonym),
    '/joinSession': () => ok({ sessionId: 's-1' }),
    ...handlers,
  });
  renderScreen(url, '/join/:token', <JoinPage />, { '/liveSession/:sessionId': <Here name="live" /> });
  return server;
}

describe("a join link's landing page, signed out", () => {
  afterEach(() => Cookies.remove('accessToken', { path: '/' }));

  it('says what will happen, then starts without an e-mail and joins with the panel ids at once', async () => {
    const server = open('/join/tok-1?PROLIFIC_PID=5f1a&STUDY_ID=s1', {});
    expect(await screen.findByRole('heading', { level: 1, name: 'Ad viewing' })).toBeTruthy();
    expect(screen.getByText(WHAT_HAPPENS_BY_TYPE.video)).toBeTruthy();
    expect(screen.getByText(JOIN_LANDING_TEXTS.privacy)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: JOIN_LANDING_TEXTS.start }));
    await waitFor(() => expect(screen.getByTestId('here').textContent).toBe('live /liveSession/:s-1'));
    const ids = { PROLIFIC_PID: '5f1a', STUDY_ID: 's1' };
    expect(server.to('/enterThroughLink').map((request) => request.body)).toEqual([
      { token: 'tok-1', panelIds: ids },
    ]);
    expect(server.to('/joinSession').map((request) => request.body)).toEqual([
      { token: 'tok-1', panelIds: ids },
    ]);
  });

  it('says an ended session takes nobody in, before anyone starts', async () => {
    const server = open('/join/tok-1', {
      '/getJoinLinkInfo': () => ok({ title: 'Ad viewing', type: 'video', state: 'ended' }),
    });
    expect(await screen.findByText(JOIN_SESSION_PAGE_TEXTS.ended)).toBeTruthy();
    expect(screen.queryByRole('button', { name: JOIN_LANDING_TEXTS.start })).toBeNull();
    expect(server.to('/enterThroughLink')).toEqual([]);
  });

  it('says so when the link leads nowhere, and when starting is refused', async () => {
    open('/join/gone', { '/getJoinLinkInfo': () => refused(404, 'No such join link.', 'NOT_FOUND') });
    expect(await screen.findByText(JOIN_LANDING_TEXTS.noLink)).toBeTruthy();
  });

  it('shows the refusal of a start in the server words, and lets them try again', async () => {
    open('/join/tok-1', {
      '/enterThroughLink': () =>
        refused(429, 'Too many people entered from this network just now.', 'RATE_LIMITED'),
    });
    fireEvent.click(await screen.findByRole('button', { name: JOIN_LANDING_TEXTS.start }));
    expect(await screen.findByText('Too many people entered from this network just now.')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: JOIN_LANDING_TEXTS.start }).disabled).toBe(
      false,
    );
  });
});
