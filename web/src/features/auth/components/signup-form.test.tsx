import { fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { SignupFlow } from './signup-flow';

const others = { '/sessions': <Here name="sessions" />, '/dashboard': <Here name="dashboard" /> };
const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('SignupFlow', () => {
  afterEach(() => {
    Cookies.remove('accessToken', { path: '/' });
    Cookies.remove('refreshToken', { path: '/' });
  });

  it('asks for the user type first, then says which empty field is missing without calling', () => {
    const server = fakeApi({});
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    expect(screen.getByRole('heading', { name: 'Select User Type' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Participant' }));

    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Please provide your email.',
      'Please provide your name.',
    ]);
    fill('Email', 'pat@example.org');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Please provide your name.',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('signs a participant up without a token and goes to /sessions signed in', async () => {
    const server = fakeApi({
      '/setNewUser': () => ok({ accessToken: 'a', refreshToken: 'r' }),
      '/getUserFromToken': () =>
        ok({
          user: {
            id: '00000000-0000-4000-8000-000000000002',
            email: 'pat@example.org',
            name: 'Pat',
            type: 'participant',
          },
        }),
    });
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    fireEvent.click(screen.getByRole('button', { name: 'Participant' }));
    fill('Email', 'pat@example.org');
    fill('Name', ' Pat ');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(screen.getByTestId('here').textContent).toBe('sessions /sessions'));
    expect(server.to('/setNewUser').map((request) => request.body)).toEqual([
      { email: 'pat@example.org', name: 'Pat', type: 'participant' },
    ]);
    expect(Cookies.get('refreshToken')).toBe('r');
  });

  it("shows the server's reason when a researcher signs up without a magic link", async () => {
    fakeApi({
      '/setNewUser': () =>
        refused(
          401,
          'Confirm your e-mail first: request a sign-in link and follow it, then sign up.',
          'UNAUTHENTICATED',
        ),
    });
    renderScreen('/signup', '/signup', <SignupFlow />, others);
    fireEvent.click(screen.getByRole('button', { name: 'Researcher' }));
    // Told before trying, too.
    expect(screen.getByText(/Researcher accounts need a confirmed e-mail/)).toBeTruthy();
    fill('Email', 'rita@example.org');
    fill('Name', 'Rita');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));

    const reason = await screen.findByRole('alert');
    expect(reason.textContent).toContain('Confirm your e-mail first');
    expect(screen.getByRole('link', { name: 'Get a sign-in link' }).getAttribute('href')).toBe('/');
    expect(Cookies.get('refreshToken')).toBeUndefined();
  });
});
