import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequireUser } from '../../../signed-in/route-guards';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderScreen } from '../../../testing/render';
import { ParticipantSessions } from '../../my-sessions/components/participant-sessions';

const participant = {
  id: '00000000-0000-4000-8000-0000000000bb',
  email: 'pat@example.org',
  name: 'Pat',
  type: 'participant',
};
const ids = ['00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000012'] as const;

describe('Withdraw, on the participant’s session list', () => {
  beforeEach(() => Cookies.set('accessToken', 'access'));
  afterEach(() => Cookies.remove('accessToken'));

  it('asks first, saying what is deleted; withdraws only after yes, and the list is read again', async () => {
    const listed = [
      { session_id: ids[0], type: 'video', title: 'Trailer', deleteDisabled: true },
      { session_id: ids[1], type: 'chat', title: 'Interview', deleteDisabled: true },
    ];
    const api = fakeApi({
      '/getUserFromToken': () => ok({ user: participant }),
      '/getParticipantSessions': () => ok({ sessions: listed }),
      '/withdrawFromSession': () => {
        listed.shift();
        return ok({
          withdrawal: {
            withdrawal_id: '00000000-0000-4000-8000-0000000000ff',
            time: '2026-05-01T10:00:00.000Z',
            userId: participant.id,
            name: 'Pat',
            email: participant.email,
            messages: 3,
            clicks: 1,
          },
        });
      },
    });
    renderScreen(
      '/sessions',
      '/sessions',
      <RequireUser>
        <ParticipantSessions />
      </RequireUser>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw from Trailer' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Withdraw from “Trailer”?' });
    expect(dialog.textContent).toContain(
      'Your chat messages, reactions and clicks in this session will be deleted',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.to('/withdrawFromSession')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Withdraw from Trailer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw and delete my data' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Trailer/ })).toBeNull());
    expect(api.to('/withdrawFromSession').map((sent) => sent.body)).toEqual([{ sessionId: ids[0] }]);
    expect(screen.getByRole('button', { name: /^Interview/ })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
