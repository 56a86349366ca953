import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { SessionClosed } from './session-closed';
import { SessionWaiting } from './session-waiting';

const show = (reopen: Parameters<typeof SessionClosed>[0]['reopen']) =>
  render(
    <MemoryRouter>
      <SessionClosed homePath="/sessions" reopen={reopen} />
    </MemoryRouter>,
  );

describe('a session found closed, or not started', () => {
  it('tells a late participant it ended, with no way in and no completion link', () => {
    show(null);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This session has ended');
    expect(alert.textContent).toContain('before you arrived');
    expect(screen.queryByRole('button', { name: 'Reopen session' })).toBeNull();
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/sessions']);
  });

  it('lets its researcher reopen it, and says so when that is refused', async () => {
    const reopen = vi
      .fn()
      .mockResolvedValueOnce({
        status: 'ERROR',
        res: { message: 'Only the researcher who owns this session can do this.' },
      })
      .mockResolvedValueOnce({ status: 'SUCCESS', res: null });
    show(reopen);
    expect(screen.getByRole('alert').textContent).toContain('Nobody can join it');
    fireEvent.click(screen.getByRole('button', { name: 'Reopen session' }));
    await waitFor(() => expect(reopen).toHaveBeenCalledTimes(1));
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Reopen session' }).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reopen session' }));
    await waitFor(() => expect(reopen).toHaveBeenCalledTimes(2));
  });

  it('keeps a participant waiting politely until the session starts', () => {
    render(<SessionWaiting />);
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('The session has not started yet');
    expect(status.textContent).toContain('moves on by itself');
  });
});
