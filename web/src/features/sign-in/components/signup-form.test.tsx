import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Navigate } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { signInExpected } from '../expected-sign-in';
import { pendingSignupFor, savePendingSignup } from '../pending-signup';
import { signupState, type SignupInvite } from '../signup-invite';
import { SignupFlow } from './signup-flow';
import { userTypeOptionName } from '../user-type-option';

const others = { '/sessions': <Here name="sessions" />, '/dashboard': <Here name="dashboard" /> };
const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const here = () => screen.getByTestId('here').textContent;
const signUp = () => fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));

// The web app's answer: the refresh token only in its HttpOnly cookie (which the fake cannot set).
const pair = { accessToken: 'a', refreshToken: '' };
/** Auth's answer to a researcher sign-up RESEARCHER_EMAILS does not allow (its RESEARCHER_NOT_GRANTED). */
const RESEARCHER_REFUSAL =
  'Researcher accounts on this site are granted by its administrators (the people who run it for your institution). ' +
  'Ask them to allow your e-mail address and then sign up again, or sign up as a participant now and ask them ' +
  'to turn that account into a researcher account.';
const userAnswer = (email: string, name: string, type: 'participant' | 'researcher') =>
  ok({ user: { id: '00000000-0000-4000-8000-000000000002', email, name, type } });

/** /signup as the magic link's callback leaves it: the invite in the history state. */
const renderWithInvite = (invite: SignupInvite) =>
  renderScreen('/from-link', '/signup', <SignupFlow />, {
    ...others,
    '/from-link': <Navigate to="/signup" replace state={signupState(invite)} />,
  });

describe('SignupFlow', () => {
  beforeEach(() => localStorage.clear());

  it('asks for the user type first, then says which empty field is missing without calling', () => {
    const server = fakeApi({});
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    expect(screen.getByRole('heading', { name: 'Select User Type' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: userTypeOptionName('participant') }));

    signUp();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Please provide your email.',
      'Please provide your name.',
    ]);
    fill('Email', 'pat@example.org');
    signUp();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Please provide your name.',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('says before Sign up that a link will confirm the address', () => {
    fakeApi({});
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    fireEvent.click(screen.getByRole('button', { name: userTypeOptionName('researcher') }));
    const button = screen.getByRole('button', { name: 'Sign up' });
    const how = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(how?.textContent).toContain('We will e-mail you a link to confirm your address');
    expect(screen.getByLabelText<HTMLInputElement>('Email').readOnly).toBe(false);
  });

  it('mails a confirming link on Sign up, says so, and keeps the choices (not a token) for that link', async () => {
    const server = fakeApi({ '/auth/magiclogin': () => ok({ message: 'sent' }) });
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    fireEvent.click(screen.getByRole('button', { name: userTypeOptionName('participant') }));
    fill('Email', ' pat@example.org ');
    fill('Name', ' Pat ');
    signUp();

    // The screen's own live region, not any other status on the page (a toast's); focus moves in an effect.
    const heading = await screen.findByRole('heading', { name: 'Check your e-mail' });
    const status = within(heading.closest('section')!).getByRole('status');
    expect(status.textContent).toBe(
      'We sent a link to pat@example.org: open it in this browser to finish signing up.',
    );
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.getAttribute('aria-describedby')).toBe(status.id);
    expect(server.requests.map((request) => [request.path, request.body])).toEqual([
      ['/auth/magiclogin', { destination: 'pat@example.org' }],
    ]);
    expect(pendingSignupFor('pat@example.org')).toEqual({
      email: 'pat@example.org',
      name: 'Pat',
      type: 'participant',
    });
    expect(JSON.stringify({ ...localStorage })).not.toContain('token');
    expect(signInExpected('pat@example.org')).toBe(true);
  });

  it('sends the link again, and goes back to the form to change the address', async () => {
    const server = fakeApi({ '/auth/magiclogin': () => ok({ message: 'sent' }) });
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    fireEvent.click(screen.getByRole('button', { name: userTypeOptionName('participant') }));
    fill('Email', 'pat@example.org');
    fill('Name', 'Pat');
    signUp();

    fireEvent.click(await screen.findByRole('button', { name: 'Send it again' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^We sent another link to/));
    expect(server.to('/auth/magiclogin')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Use a different e-mail' }));
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    expect(document.activeElement).toBe(email);
    expect(email.value).toBe('pat@example.org');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Pat');
    // The old address's link no longer completes anything by itself.
    expect(pendingSignupFor('pat@example.org')).toBeNull();

    fill('Email', 'pat.doe@example.org');
    signUp();
    // A first link to the new address, not "another" one.
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^We sent a link to pat\.doe@example\.org:/,
    );
    expect(server.to('/auth/magiclogin')[2]?.body).toEqual({ destination: 'pat.doe@example.org' });
    expect(pendingSignupFor('pat.doe@example.org')?.name).toBe('Pat');
  });

  it("toasts 'Error signing up.' with the server's reason beside the form when the link is not sent", async () => {
    const error = vi.spyOn(notify, 'error');
    fakeApi({
      '/auth/magiclogin': () =>
        refused(429, 'Too many sign-in requests. Please wait 5 minutes and try again.', 'TOO_MANY_REQUESTS'),
    });
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    fireEvent.click(screen.getByRole('button', { name: userTypeOptionName('participant') }));
    fill('Email', 'pat@example.org');
    fill('Name', 'Pat');
    signUp();

    expect((await screen.findByRole('alert')).textContent).toContain('Too many sign-in requests');
    expect(error).toHaveBeenCalledWith(
      'Error signing up.',
      'Too many sign-in requests. Please wait 5 minutes and try again.',
    );
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();
    expect(pendingSignupFor('pat@example.org')).toBeNull();
  });

  it('completes by itself when the link of a sign-up pending in this browser comes back', async () => {
    savePendingSignup({ email: 'pat@example.org', name: 'Pat', type: 'participant' });
    const server = fakeApi({
      '/setNewUser': () => ok(pair),
      '/getUserFromToken': () => userAnswer('pat@example.org', 'Pat', 'participant'),
    });
    renderWithInvite({ email: 'pat@example.org', token: 'tok' });
    expect(screen.getByRole('status').textContent).toBe('Finishing your sign-up...');

    await waitFor(() => expect(here()).toBe('sessions /sessions'));
    // Once, though StrictMode runs the effect twice.
    expect(server.to('/setNewUser').map((request) => request.body)).toEqual([
      { email: 'pat@example.org', name: 'Pat', type: 'participant', token: 'tok' },
    ]);
    expect(pendingSignupFor('pat@example.org')).toBeNull();
  });

  it('sends a researcher to the dashboard, and matches the pending e-mail whatever its case', async () => {
    savePendingSignup({ email: 'Rita@Example.org', name: 'Rita', type: 'researcher' });
    const server = fakeApi({
      '/setNewUser': () => ok(pair),
      '/getUserFromToken': () => userAnswer('rita@example.org', 'Rita', 'researcher'),
    });
    renderWithInvite({ email: 'rita@example.org', token: 'tok' });
    await waitFor(() => expect(here()).toBe('dashboard /dashboard'));
    expect(server.to('/setNewUser')[0]?.body).toMatchObject({ type: 'researcher', token: 'tok' });
  });

  it('asks for type and name, the e-mail fixed, when nothing is pending for the link’s e-mail', async () => {
    savePendingSignup({ email: 'someone.else@example.org', name: 'Sam', type: 'researcher' });
    const server = fakeApi({
      '/setNewUser': () => ok(pair),
      '/getUserFromToken': () => userAnswer('pat@example.org', 'Pat', 'participant'),
    });
    renderWithInvite({ email: 'pat@example.org', token: 'tok' });
    fireEvent.click(screen.getByRole('button', { name: userTypeOptionName('participant') }));
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    expect(email.value).toBe('pat@example.org');
    expect(email.readOnly).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('');
    expect(screen.getByText(/Your e-mail is confirmed by the sign-in link/)).toBeTruthy();
    fill('Name', 'Pat');
    signUp();

    await waitFor(() => expect(here()).toBe('sessions /sessions'));
    expect(server.to('/setNewUser').map((request) => request.body)).toEqual([
      { email: 'pat@example.org', name: 'Pat', type: 'participant', token: 'tok' },
    ]);
    expect(server.to('/auth/magiclogin')).toHaveLength(0);
  });

  it('shows the choices again with the reason when the pending sign-up is refused, to change and retry', async () => {
    savePendingSignup({ email: 'rita@example.org', name: 'Rita', type: 'researcher' });
    const server = fakeApi({
      '/setNewUser': (request) =>
        (request.body as { type: string }).type === 'researcher'
          ? refused(403, RESEARCHER_REFUSAL, 'FORBIDDEN')
          : ok(pair),
      '/getUserFromToken': () => userAnswer('rita@example.org', 'Rita', 'participant'),
    });
    renderWithInvite({ email: 'rita@example.org', token: 'tok' });

    // Who grants a researcher account, and that a participant's may be had now: the server's words, whole.
    expect((await screen.findByRole('alert')).textContent).toContain(RESEARCHER_REFUSAL);
    expect(screen.getByText('Researcher')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Rita');
    expect(screen.getByLabelText<HTMLInputElement>('Email').readOnly).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    fireEvent.click(screen.getByRole('button', { name: userTypeOptionName('participant') }));
    signUp();
    await waitFor(() => expect(here()).toBe('sessions /sessions'));
    expect(server.to('/setNewUser').map((request) => request.body)).toEqual([
      { email: 'rita@example.org', name: 'Rita', type: 'researcher', token: 'tok' },
      { email: 'rita@example.org', name: 'Rita', type: 'participant', token: 'tok' },
    ]);
  });

  it('forgets a link the server refuses, so Sign up mails a new one', async () => {
    const error = vi.spyOn(notify, 'error');
    savePendingSignup({ email: 'pat@example.org', name: 'Pat', type: 'participant' });
    const server = fakeApi({
      '/setNewUser': () =>
        refused(
          401,
          'This sign-in link is invalid, expired or already used. Please request a new one.',
          'UNAUTHENTICATED',
        ),
      '/auth/magiclogin': () => ok({ message: 'sent' }),
    });
    renderWithInvite({ email: 'pat@example.org', token: 'old' });

    expect((await screen.findByRole('alert')).textContent).toContain('Please request a new one.');
    expect(error).toHaveBeenCalledWith(
      'Error signing up.',
      'This sign-in link is invalid, expired or already used. Please request a new one.',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Email').readOnly).toBe(false);
    signUp();
    expect((await screen.findByRole('status')).textContent).toContain('We sent a link to pat@example.org');
    expect(server.to('/auth/magiclogin').map((request) => request.body)).toEqual([
      { destination: 'pat@example.org' },
    ]);
    expect(server.to('/setNewUser')).toHaveLength(1);
  });
});
