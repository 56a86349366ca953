import { INITIAL_LIVE_STATE, type LiveState } from '@uis/live-client';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionNotice } from './connection-notice';

const base: LiveState = { ...INITIAL_LIVE_STATE, status: 'connected' };

function show(change: Partial<LiveState>) {
  const onSignInAgain = vi.fn();
  render(
    <MemoryRouter>
      <ConnectionNotice state={{ ...base, ...change }} homePath="/sessions" onSignInAgain={onSignInAgain} />
    </MemoryRouter>,
  );
  return { onSignInAgain };
}

describe('connection notice', () => {
  it("says 'Reconnecting…' while the socket is away, and nothing once connected", () => {
    show({ status: 'reconnecting' });
    expect(screen.getByRole('status').textContent).toBe('Reconnecting…');
  });

  it('is an empty status region while connected, so the next change is announced', () => {
    show({});
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it("shows the server's words when the user was taken out of the session, with a way back", () => {
    show({ status: 'ended', accessEnded: 'The researcher removed you from this session.' });
    expect(screen.getByRole('alert').textContent).toContain('The researcher removed you from this session.');
    expect(screen.getByRole('link', { name: 'Back to your sessions' }).getAttribute('href')).toBe(
      '/sessions',
    );
  });

  it('sends a user whose sign-in ended back to sign in', () => {
    const { onSignInAgain } = show({
      status: 'ended',
      problem: { code: 'REVOKED', message: 'You signed out on another device.' },
    });
    expect(screen.getByRole('alert').textContent).toContain('You signed out on another device.');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(onSignInAgain).toHaveBeenCalled();
  });

  it('says why a connection was refused otherwise (too many tabs)', () => {
    show({ status: 'ended', problem: { code: 'RATE_LIMITED', message: 'Close a tab first.' } });
    expect(screen.getByRole('alert').textContent).toBe(
      'The live session is not connected: Close a tab first.',
    );
  });
});
