import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderScreen } from '../../../testing/render';
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
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(button().textContent).toBe('Enter');
  });
});
