import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPLETION_REDIRECT_S, SessionEnded } from './session-ended';

function show(props: { completionUrl: string | null; participant: boolean }) {
  const go = vi.fn();
  render(
    <MemoryRouter>
      <SessionEnded {...props} homePath="/sessions" go={go} />
    </MemoryRouter>,
  );
  return { go };
}

describe('the ended session screen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells a participant the session has ended, with a way back to their sessions', async () => {
    const { go } = show({ completionUrl: null, participant: true });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This session has ended');
    expect(screen.getByRole('link', { name: 'Back to your sessions' }).getAttribute('href')).toBe(
      '/sessions',
    );
    await act(() => vi.advanceTimersByTime(60_000));
    expect(go).not.toHaveBeenCalled();
  });

  it('sends a participant to the completion URL after a visible countdown, or now with the link', async () => {
    const url = 'https://survey.example.org/thanks';
    const { go } = show({ completionUrl: url, participant: true });
    expect(screen.getByRole('alert').textContent).toContain(`in ${COMPLETION_REDIRECT_S} seconds`);
    expect(screen.getByRole('link', { name: 'Continue now' }).getAttribute('href')).toBe(url);
    await act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('alert').textContent).toContain(`in ${COMPLETION_REDIRECT_S - 1} seconds`);
    for (let s = 1; s < COMPLETION_REDIRECT_S; s += 1) await act(() => vi.advanceTimersByTime(1000));
    expect(go).toHaveBeenCalledWith(url);
    expect(go).toHaveBeenCalledTimes(1);
  });

  it('leaves the researcher on the page', async () => {
    const { go } = show({ completionUrl: 'https://survey.example.org/thanks', participant: false });
    expect(screen.getByRole('alert').textContent).toContain('You ended this session for everyone.');
    expect(screen.queryByRole('link', { name: 'Continue now' })).toBeNull();
    await act(() => vi.advanceTimersByTime(60_000));
    expect(go).not.toHaveBeenCalled();
  });
});
