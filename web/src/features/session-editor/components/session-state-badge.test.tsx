import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { SessionStateBadge } from './session-state-badge';

describe("the editor's session state", () => {
  it('opens a session that has not started, without the live page', async () => {
    const server = fakeApi({ '/editSessionInfo': () => ok({ message: 'Session updated.' }) });
    renderWithApi(<SessionStateBadge sessionId="s-1" state="not_started" />);
    expect(screen.getByRole('status').textContent).toContain('Not started: participants wait');
    fireEvent.click(screen.getByRole('button', { name: 'Open now' }));
    await waitFor(() =>
      expect(server.to('/editSessionInfo').map((request) => request.body)).toEqual([
        { sessionId: 's-1', state: 'live' },
      ]),
    );
  });

  it('says a session is live or ended, with nothing to press', () => {
    renderWithApi(<SessionStateBadge sessionId="s-1" state="ended" />);
    expect(screen.getByRole('status').textContent).toBe('Ended: closed to everyone');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
