import { fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequireUser } from '../../../signed-in/route-guards';
import { fakeApi, ok, refused, type ApiHandler } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { ConsentGate } from './consent-gate';
import { CONSENT_GATE_TEXTS } from '../../../i18n/en/common';

const sessionId = '00000000-0000-4000-8000-000000000011';
const participant = {
  id: '00000000-0000-4000-8000-0000000000bb',
  email: 'pat@example.org',
  name: 'Pat',
  type: 'participant',
};
const version = (text: string, n: number, sha256: string) => ({
  version: n,
  text,
  sha256,
  createdAt: '2026-05-01T10:00:00.000Z',
});
const first = version('Your chat is recorded.\nAgree?', 1, 'a'.repeat(64));

function server(
  myConsent: ApiHandler,
  accept: ApiHandler = () => ok({ acceptance: {} }),
  enter: ApiHandler = () => ok({ message: 'You take part in this session.' }),
) {
  return fakeApi({
    '/getUserFromToken': () => ok({ user: participant }),
    '/getSessionInfo': () =>
      ok({ sessionInfo: { title: 'Trailer', scope: 'Everyone', type: 'video', track: '', source: '' } }),
    '/getMyConsent': myConsent,
    '/acceptConsent': accept,
    '/enterSession': enter,
  });
}

const renderGate = () =>
  renderScreen(
    '/liveSession/x',
    '/liveSession/:id',
    <RequireUser>
      <ConsentGate sessionId={sessionId}>
        <Here name="live" />
      </ConsentGate>
    </RequireUser>,
    { '/sessions': <Here name="sessions" /> },
  );

describe('ConsentGate', () => {
  beforeEach(() => Cookies.set('accessToken', 'access'));
  afterEach(() => Cookies.remove('accessToken'));

  it('asks a participant who opened an Everyone session from a link before anything reaches the researcher', async () => {
    let entered = false;
    const api = server(
      () => ok({ consent: null, required: false, acceptedAt: null, mustConfirm: !entered }),
      undefined,
      () => {
        entered = true;
        return ok({ message: 'You take part in this session.' });
      },
    );
    renderGate();
    expect(await screen.findByRole('heading', { name: CONSENT_GATE_TEXTS.confirmHeading })).toBeTruthy();
    expect(screen.getByText(CONSENT_GATE_TEXTS.confirmBody)).toBeTruthy();
    expect(screen.queryByTestId('here')).toBeNull();
    expect(api.to('/enterSession')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: CONSENT_GATE_TEXTS.join }));
    await waitFor(() => expect(screen.getByTestId('here').textContent).toBe('live /liveSession/x'));
    expect(api.to('/enterSession').map((request) => request.body)).toEqual([{ sessionId }]);
  });

  it('records that a participant the scope names took part once the page is open, without asking', async () => {
    const api = server(() => ok({ consent: null, required: false, acceptedAt: null, mustConfirm: false }));
    renderGate();
    expect((await screen.findByTestId('here')).textContent).toBe('live /liveSession/x');
    await waitFor(() => expect(api.to('/enterSession')).toHaveLength(1));
  });

  it('shows the text instead of the live session until the participant agrees, by the text’s hash', async () => {
    let agreed = false;
    const api = server(
      () => ok({ consent: first, required: !agreed, acceptedAt: agreed ? '2026-05-01T10:01:00.000Z' : null }),
      () => {
        agreed = true;
        return ok({
          acceptance: { version: 1, sha256: first.sha256, acceptedAt: '2026-05-01T10:01:00.000Z' },
        });
      },
    );
    renderGate();
    expect(await screen.findByRole('heading', { name: 'Before you join' })).toBeTruthy();
    expect(screen.getByRole('document', { name: 'Consent text' }).textContent).toBe(first.text);
    expect(await screen.findByText('Trailer')).toBeTruthy();
    expect(screen.queryByTestId('here')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'I agree' }));
    await waitFor(() => expect(screen.getByTestId('here').textContent).toBe('live /liveSession/x'));
    expect(api.to('/acceptConsent').map((sent) => sent.body)).toEqual([{ sessionId, sha256: first.sha256 }]);
  });

  it('says so when the text changed meanwhile, and shows the new one', async () => {
    let current = first;
    server(
      () => ok({ consent: current, required: true, acceptedAt: null }),
      () => {
        current = version('A new text.', 2, 'b'.repeat(64));
        return refused(409, 'The consent text changed since you read it', 'CONFLICT');
      },
    );
    renderGate();
    fireEvent.click(await screen.findByRole('button', { name: 'I agree' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The researcher has just changed this text. Please read it again.',
    );
    await waitFor(() =>
      expect(screen.getByRole('document', { name: 'Consent text' }).textContent).toBe('A new text.'),
    );
    expect(screen.queryByTestId('here')).toBeNull();
  });

  it('opens the live session at once when no agreement is needed, or when the status cannot be read', async () => {
    server(() => ok({ consent: null, required: false, acceptedAt: null }));
    const { unmount } = renderGate();
    expect((await screen.findByTestId('here')).textContent).toBe('live /liveSession/x');
    unmount();
    server(() => refused(503, 'studies is down', 'UNAVAILABLE'));
    renderGate();
    expect((await screen.findByTestId('here')).textContent).toBe('live /liveSession/x');
  });

  it('Not now goes back to the participant’s sessions', async () => {
    server(() => ok({ consent: first, required: true, acceptedAt: null }));
    renderGate();
    fireEvent.click(await screen.findByRole('link', { name: 'Not now' }));
    await waitFor(() => expect(screen.getByTestId('here').textContent).toBe('sessions /sessions'));
  });
});
