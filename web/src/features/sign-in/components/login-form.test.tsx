import { act, fireEvent, screen } from '@testing-library/react';
import { Navigate, useLocation } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { renderScreen } from '../../../testing/render';
import { signInExpected } from '../expected-sign-in';
import { LoginForm } from './login-form';

const button = () => screen.getByRole('button', { name: /^(Enter|Processing \d+%)$/ });

describe('LoginForm', () => {
  beforeEach(() => vi.useFakeTimers());

  it('says an empty e-mail must be given, next to the field, without calling the server', () => {
    const server = fakeApi({});
    renderScreen('/', '/', <LoginForm />);
    fireEvent.click(button());
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe('Please provide your email to enter.');
    expect(screen.getByLabelText('Email').getAttribute('aria-describedby')).toBe(error.id);
    expect(server.to('/auth/magiclogin')).toHaveLength(0);
  });

  it('sends the link on Enter, shows the progress, then the sent message, then is idle again', async () => {
    let answer!: () => void;
    const server = fakeApi({
      '/auth/magiclogin': () => new Promise((resolve) => (answer = () => resolve(ok({ message: 'sent' })))),
    });
    renderScreen('/', '/', <LoginForm />);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' ada@example.org ' } });
    fireEvent.submit(screen.getByLabelText('Email').closest('form')!);
    expect(button().textContent).toBe('Processing 0%');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(button().textContent).toBe('Processing 30%');

    await act(async () => {
      answer();
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(button().textContent).toBe('Processing 100%');
    expect(screen.getByRole('status').textContent).toContain(
      'Magic link sent! Please check your email and click the link to proceed',
    );
    expect(server.to('/auth/magiclogin').map((request) => request.body)).toEqual([
      { destination: 'ada@example.org' },
    ]);
    // Its link signs in at once in this browser (login CSRF: any other link asks first).
    expect(signInExpected('ada@example.org')).toBe(true);
    expect(signInExpected('eve@example.org')).toBe(false);
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(button().textContent).toBe('Enter');
  });

  it('keeps a refusal for too many requests beside the form, saying when to try again', async () => {
    fakeApi({
      '/auth/magiclogin': () =>
        refused(429, 'Too many sign-in requests. Please wait 2 minutes and try again.', 'RATE_LIMITED'),
    });
    renderScreen('/', '/', <LoginForm />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'student@campus.test' } });
    await act(async () => {
      fireEvent.submit(screen.getByLabelText('Email').closest('form')!);
      await vi.advanceTimersByTimeAsync(0);
    });
    act(() => {
      vi.advanceTimersByTime(5_000); // the toast has gone by now; the sentence stays
    });
    expect(screen.getByRole('alert').textContent).toContain(
      'Too many sign-in requests. Please wait 2 minutes and try again.',
    );
  });

  it('sends the page the person came for as next with the link, and on to sign-up', async () => {
    const server = fakeApi({ '/auth/magiclogin': () => ok({ message: 'sent' }) });
    // The guard sent the person here from a join link (history state).
    renderScreen('/start', '/', <LoginForm />, {
      '/start': <Navigate to="/" replace state={{ returnPath: '/join/tok?PROLIFIC_PID=abc' }} />,
      '/signup': <SignupState />,
    });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'pat@example.org' } });
    await act(async () => {
      fireEvent.submit(screen.getByLabelText('Email').closest('form')!);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(server.to('/auth/magiclogin').map((request) => request.body)).toEqual([
      { destination: 'pat@example.org', next: '/join/tok?PROLIFIC_PID=abc' },
    ]);
    fireEvent.click(screen.getByRole('link', { name: 'Sign up' }));
    expect(screen.getByTestId('state').textContent).toBe('{"returnPath":"/join/tok?PROLIFIC_PID=abc"}');
  });

  it('sends no next for a path that is not of this app', async () => {
    const server = fakeApi({ '/auth/magiclogin': () => ok({ message: 'sent' }) });
    renderScreen('/start', '/', <LoginForm />, {
      '/start': <Navigate to="/" replace state={{ returnPath: 'https://evil.example' }} />,
    });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'pat@example.org' } });
    await act(async () => {
      fireEvent.submit(screen.getByLabelText('Email').closest('form')!);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(server.to('/auth/magiclogin').map((request) => request.body)).toEqual([
      { destination: 'pat@example.org' },
    ]);
  });
});

function SignupState() {
  return <p data-testid="state">{JSON.stringify(useLocation().state)}</p>;
}
