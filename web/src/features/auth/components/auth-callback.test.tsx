import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { Link, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { rememberReturnPath } from '../../../auth/return-path';
import { rememberedReturnPath } from '../remembered-return-path';
import { pendingSignupFor, savePendingSignup } from '../pending-signup';
import { AuthCallback } from './auth-callback';
import { SignupFlow } from './signup-flow';

const pair = { accessToken: 'access-1', refreshToken: 'refresh-1' };
const user = (type: 'researcher' | 'participant') => ({
  user: { id: '00000000-0000-4000-8000-000000000001', email: 'a@example.org', name: 'Ada', type },
});

const others = {
  '/': <Here name="login" />,
  '/dashboard': <Here name="dashboard" />,
  '/sessions': <Here name="sessions" />,
  '/signup': <SignupFlow />,
  '/join/:token': <Here name="join" />,
  '/liveSession/:sessionId': <Here name="live" />,
};
const here = () => screen.getByTestId('here').textContent;

describe('AuthCallback', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    Cookies.remove('accessToken', { path: '/' });
    Cookies.remove('refreshToken', { path: '/' });
  });

  it('spends the link once though StrictMode runs its effect twice, and sends a researcher to the dashboard', async () => {
    const server = fakeApi({
      '/getUserTokens': () => ok(pair),
      '/getUserFromToken': () => ok(user('researcher')),
    });
    // Mounted once the stored tokens were checked, so the effect does its work on mount, twice.
    const link = '/authcallback?email=a%40example.org&token=tok';
    renderScreen('/start', '/authcallback', <AuthCallback />, {
      ...others,
      '/start': <Link to={link}>open</Link>,
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    fireEvent.click(screen.getByRole('link', { name: 'open' }));
    expect(screen.getByText('Verifying your login...')).toBeTruthy();

    await waitFor(() => expect(here()).toBe('dashboard /dashboard'));
    expect(server.to('/getUserTokens')).toHaveLength(1);
    expect(server.to('/getUserTokens')[0]?.query.token).toBe('tok');
    expect(Cookies.get('refreshToken')).toBe('refresh-1');
  });

  it('sends a participant to their sessions, dropping a sign-up this browser had pending', async () => {
    // Sign up for an e-mail that had an account: its link simply signs in.
    savePendingSignup({ email: 'a@example.org', name: 'Ada', type: 'participant' });
    const server = fakeApi({
      '/getUserTokens': () => ok(pair),
      '/getUserFromToken': () => ok(user('participant')),
    });
    renderScreen('/authcallback?email=a%40example.org&token=tok', '/authcallback', <AuthCallback />, others);
    await waitFor(() => expect(here()).toBe('sessions /sessions'));
    expect(pendingSignupFor('a@example.org')).toBeNull();
    expect(server.to('/setNewUser')).toHaveLength(0);
  });

  it('completes a sign-up pending in this browser with the link as proof and the name and type chosen before', async () => {
    savePendingSignup({ email: 'new@example.org', name: 'Nia', type: 'participant' });
    const server = fakeApi({
      '/getUserTokens': () => refused(404, 'sign up to continue', 'SIGNUP_REQUIRED'),
      '/setNewUser': () => ok(pair),
      '/getUserFromToken': () => ok(user('participant')),
    });
    renderScreen(
      '/authcallback?email=new%40example.org&token=tok',
      '/authcallback',
      <AuthCallback />,
      others,
    );

    await waitFor(() => expect(here()).toBe('sessions /sessions'));
    expect(server.requests.map((request) => request.path)).toEqual([
      '/getUserTokens',
      '/setNewUser',
      '/getUserFromToken',
    ]);
    expect(server.to('/setNewUser').map((request) => request.body)).toEqual([
      { email: 'new@example.org', name: 'Nia', type: 'participant', token: 'tok' },
    ]);
    expect(Cookies.get('refreshToken')).toBe('refresh-1');
    expect(pendingSignupFor('new@example.org')).toBeNull();
  });

  it('takes an e-mail without an account to sign-up, where the link proves the address (nothing pending: type and name asked)', async () => {
    const server = fakeApi({
      '/getUserTokens': () => refused(404, 'sign up to continue', 'SIGNUP_REQUIRED'),
      '/setNewUser': () => ok(pair),
      '/getUserFromToken': () => ok(user('researcher')),
    });
    renderScreen(
      '/authcallback?email=new%40example.org&token=tok',
      '/authcallback',
      <AuthCallback />,
      others,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Researcher' }));

    const email = await screen.findByLabelText<HTMLInputElement>('Email');
    expect(email.value).toBe('new@example.org');
    expect(email.readOnly).toBe(true);
    const name = screen.getByLabelText<HTMLInputElement>('Name');
    fireEvent.change(name, { target: { value: 'Nia' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(here()).toBe('dashboard /dashboard'));
    expect(server.to('/setNewUser').map((request) => request.body)).toEqual([
      { email: 'new@example.org', name: 'Nia', type: 'researcher', token: 'tok' },
    ]);
  });

  it('goes back to login without asking the server when the e-mail is missing', async () => {
    const server = fakeApi({});
    renderScreen('/authcallback?token=tok', '/authcallback', <AuthCallback />, others);
    await waitFor(() => expect(here()).toBe('login /'));
    expect(server.to('/getUserTokens')).toHaveLength(0);
  });

  it('goes back to login when the server refuses the link', async () => {
    fakeApi({
      '/getUserTokens': () => refused(401, 'This sign-in link is invalid, expired or already used.'),
    });
    renderScreen('/authcallback?email=a%40example.org&token=old', '/authcallback', <AuthCallback />, others);
    await waitFor(() => expect(here()).toBe('login /'));
    expect(Cookies.get('refreshToken')).toBeUndefined();
  });

  describe('the page the person signed in for', () => {
    it("opens the link's next (a join link, with its query) instead of home", async () => {
      fakeApi({ '/getUserTokens': () => ok(pair), '/getUserFromToken': () => ok(user('participant')) });
      const next = encodeURIComponent('/join/tok-9?PROLIFIC_PID=abc123');
      renderScreen(
        `/authcallback?email=a%40example.org&token=tok&next=${next}`,
        '/authcallback',
        <AuthCallback />,
        {
          ...others,
          '/join/:token': <JoinHere />,
        },
      );
      await waitFor(() => expect(here()).toBe('join /join/tok-9?PROLIFIC_PID=abc123'));
    });

    it('never follows a next that is not a path of this app', async () => {
      fakeApi({ '/getUserTokens': () => ok(pair), '/getUserFromToken': () => ok(user('participant')) });
      const next = encodeURIComponent('//evil.example/join');
      renderScreen(
        `/authcallback?email=a%40example.org&token=tok&next=${next}`,
        '/authcallback',
        <AuthCallback />,
        others,
      );
      await waitFor(() => expect(here()).toBe('sessions /sessions'));
    });

    it('opens the page remembered before a provider sign-in (no next in its link), then forgets it', async () => {
      rememberReturnPath('/liveSession/:s-1');
      fakeApi({ '/getUserTokens': () => ok(pair), '/getUserFromToken': () => ok(user('participant')) });
      renderScreen(
        '/authcallback?email=a%40example.org&token=tok&name=Ada',
        '/authcallback',
        <AuthCallback />,
        others,
      );
      await waitFor(() => expect(here()).toBe('live /liveSession/:s-1'));
      expect(rememberedReturnPath()).toBeNull();
    });

    it('carries next through sign-up: the new account lands on that page (an invitation)', async () => {
      const server = fakeApi({
        '/getUserTokens': () => refused(404, 'sign up to continue', 'SIGNUP_REQUIRED'),
        '/setNewUser': () => ok(pair),
        '/getUserFromToken': () => ok(user('participant')),
      });
      const next = encodeURIComponent('/liveSession/:s-1');
      renderScreen(
        `/authcallback?email=new%40example.org&token=inv&next=${next}`,
        '/authcallback',
        <AuthCallback />,
        others,
      );
      fireEvent.click(await screen.findByRole('button', { name: 'Participant' }));
      fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Nia' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
      await waitFor(() => expect(here()).toBe('live /liveSession/:s-1'));
      expect(server.to('/setNewUser').map((request) => request.body)).toEqual([
        { email: 'new@example.org', name: 'Nia', type: 'participant', token: 'inv' },
      ]);
    });

    it('completes a pending sign-up and opens next (signed up from a join link in this browser)', async () => {
      savePendingSignup({ email: 'new@example.org', name: 'Nia', type: 'participant' });
      fakeApi({
        '/getUserTokens': () => refused(404, 'sign up to continue', 'SIGNUP_REQUIRED'),
        '/setNewUser': () => ok(pair),
        '/getUserFromToken': () => ok(user('participant')),
      });
      const next = encodeURIComponent('/join/tok-9');
      renderScreen(
        `/authcallback?email=new%40example.org&token=tok&next=${next}`,
        '/authcallback',
        <AuthCallback />,
        others,
      );
      await waitFor(() => expect(here()).toBe('join /join/tok-9'));
    });

    it('keeps the page for another try when the link is refused', async () => {
      fakeApi({ '/getUserTokens': () => refused(401, 'This sign-in link is used.') });
      const next = encodeURIComponent('/join/tok-9');
      renderScreen(
        `/authcallback?email=a%40example.org&token=old&next=${next}`,
        '/authcallback',
        <AuthCallback />,
        {
          ...others,
          '/': <StateHere />,
        },
      );
      await waitFor(() => expect(here()).toBe('login / {"returnPath":"/join/tok-9"}'));
    });
  });
});

/** Where the app went, with the query (a join link's ids must survive). */
function JoinHere() {
  const location = useLocation();
  return <p data-testid="here">join {location.pathname + location.search}</p>;
}

/** Where the app went, with the history state it carried. */
function StateHere() {
  const location = useLocation();
  return (
    <p data-testid="here">
      login {location.pathname} {JSON.stringify(location.state)}
    </p>
  );
}
