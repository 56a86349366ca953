import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Link, useLocation } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { rememberReturnPath } from '../../../signed-in/return-path';
import { rememberedReturnPath } from '../remembered-return-path';
import { expectLinkFor, expectProviderSignIn, signInExpected } from '../expected-sign-in';
import { pendingSignupFor, savePendingSignup } from '../pending-signup';
import { AuthCallback } from './auth-callback';
import { SignupFlow } from './signup-flow';
import { userTypeOptionName } from '../user-type-option';

// The web app's answer: the tokens are in HttpOnly cookies the fake cannot set, the refresh token never in the body.
const pair = { accessToken: 'access-1', refreshToken: '' };
/** No script of the app wrote a token (auth's cookies are HttpOnly). */
const noTokenWritten = () => expect(document.cookie).not.toMatch(/access-1/);
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
  // The links of these tests were asked for in this browser (its login or sign-up form).
  beforeEach(() => {
    localStorage.clear();
    expectLinkFor('a@example.org');
    expectLinkFor('new@example.org');
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
    noTokenWritten();
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
    noTokenWritten();
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
    fireEvent.click(await screen.findByRole('button', { name: userTypeOptionName('researcher') }));

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
      fireEvent.click(await screen.findByRole('button', { name: userTypeOptionName('participant') }));
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

describe('AuthCallback: a link this browser did not ask for (login CSRF)', () => {
  beforeEach(() => localStorage.clear());
  const link = '/authcallback?email=mallory%40example.org&token=tok';

  it("signs in only after 'Continue as …': someone else's link would sign this person into their account", async () => {
    const server = fakeApi({
      '/getUserTokens': () => ok(pair),
      '/getUserFromToken': () => ok(user('participant')),
    });
    renderScreen(link, '/authcallback', <AuthCallback />, others);
    const proceed = await screen.findByRole('button', { name: 'Continue as mallory@example.org' });
    expect(screen.getByRole('heading', { name: 'Sign in as mallory@example.org?' })).toBeTruthy();
    // Nothing is spent or signed in while the person reads.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(server.requests.map((request) => request.path)).toEqual([]);

    fireEvent.click(proceed);
    expect(screen.getByText('Verifying your login...')).toBeTruthy();
    await waitFor(() => expect(here()).toBe('sessions /sessions'));
    expect(server.to('/getUserTokens')).toHaveLength(1);
  });

  it('leads back to the login screen instead, spending nothing', async () => {
    const server = fakeApi({});
    renderScreen(link, '/authcallback', <AuthCallback />, others);
    fireEvent.click(await screen.findByRole('link', { name: /Not you\?/ }));
    await waitFor(() => expect(here()).toBe('login /'));
    expect(server.requests).toEqual([]);
  });

  it('asks also when this browser asked for a link of another address', async () => {
    expectLinkFor('ada@example.org');
    fakeApi({});
    renderScreen(link, '/authcallback', <AuthCallback />, others);
    expect(await screen.findByRole('button', { name: 'Continue as mallory@example.org' })).toBeTruthy();
  });

  it('signs in at once after a provider sign-in started here, and that expectation is then spent', async () => {
    expectProviderSignIn();
    fakeApi({ '/getUserTokens': () => ok(pair), '/getUserFromToken': () => ok(user('participant')) });
    renderScreen(`${link}&name=Mallory`, '/authcallback', <AuthCallback />, others);
    await waitFor(() => expect(here()).toBe('sessions /sessions'));
    expect(signInExpected('mallory@example.org')).toBe(false);
  });

  it('signs in at once when the address matches a link asked for here, whatever its case', async () => {
    expectLinkFor(' Mallory@Example.org ');
    fakeApi({ '/getUserTokens': () => ok(pair), '/getUserFromToken': () => ok(user('participant')) });
    renderScreen(link, '/authcallback', <AuthCallback />, others);
    await waitFor(() => expect(here()).toBe('sessions /sessions'));
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
