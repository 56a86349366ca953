import { screen, waitFor } from '@testing-library/react';
import { Navigate, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, ok } from '../testing/fake-api';
import { Here, renderScreen } from '../testing/render';
import { PublicOnly, RequireUser } from './route-guards';
import { tokens } from './tokens';

/** The login screen's stand-in: where it is and the state it was given. */
function LoginHere() {
  const location = useLocation();
  return (
    <p data-testid="here">
      login {location.pathname + location.search} {JSON.stringify(location.state)}
    </p>
  );
}
const here = () => screen.getByTestId('here').textContent;

describe('RequireUser', () => {
  it('sends a signed-out visitor to / with the page (and its query) to come back to', async () => {
    fakeApi({});
    renderScreen(
      '/join/tok?PROLIFIC_PID=abc123&STUDY_ID=s1',
      '/join/:token',
      <RequireUser>
        <p>join</p>
      </RequireUser>,
      { '/': <LoginHere /> },
    );
    await waitFor(() =>
      expect(here()).toBe('login / {"returnPath":"/join/tok?PROLIFIC_PID=abc123&STUDY_ID=s1"}'),
    );
  });
});

describe('PublicOnly', () => {
  afterEach(() => tokens.clear());

  it('sends a signed-in user to the page they came for rather than home', async () => {
    // Auth's readable marker beside its HttpOnly token cookies.
    document.cookie = `signedIn=${Math.floor(Date.now() / 1000) + 900}; path=/`;
    fakeApi({
      '/getUserFromToken': () =>
        ok({
          user: {
            id: '00000000-0000-4000-8000-000000000001',
            email: 'a@b.org',
            name: 'A',
            type: 'participant',
          },
        }),
    });
    renderScreen(
      '/start',
      '/',
      <PublicOnly>
        <p>login</p>
      </PublicOnly>,
      {
        '/start': <Navigate to="/" replace state={{ returnPath: '/join/tok' }} />,
        '/join/:token': <Here name="join" />,
        '/sessions': <Here name="sessions" />,
      },
    );
    await waitFor(() => expect(here()).toBe('join /join/tok'));
  });
});
