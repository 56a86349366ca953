import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { Link } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
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
};
const here = () => screen.getByTestId('here').textContent;

describe('AuthCallback', () => {
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

  it('sends a participant to their sessions', async () => {
    fakeApi({ '/getUserTokens': () => ok(pair), '/getUserFromToken': () => ok(user('participant')) });
    renderScreen('/authcallback?email=a%40example.org&token=tok', '/authcallback', <AuthCallback />, others);
    await waitFor(() => expect(here()).toBe('sessions /sessions'));
  });

  it('takes an e-mail without an account to sign-up, where the link proves the address', async () => {
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
});
