import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, type ApiRequest } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { ConsentSection } from './consent-section';

const sessionId = '00000000-0000-4000-8000-000000000011';
const saved = { version: 1, text: 'Agree?', sha256: 'a'.repeat(64), createdAt: '2026-05-01T10:00:00.000Z' };

describe('ConsentSection', () => {
  it('saves the text with its button, only when it changed, and shows who agreed and who withdrew', async () => {
    const api = fakeApi({
      '/getSessionConsent': () =>
        ok({
          consent: saved,
          acceptances: [
            {
              userId: '00000000-0000-4000-8000-0000000000bb',
              name: 'Pat',
              email: 'pat@example.org',
              version: 1,
              sha256: saved.sha256,
              acceptedAt: '2026-05-01T10:01:00.000Z',
              withdrawnAt: null,
            },
          ],
        }),
      '/setSessionConsent': (request: ApiRequest) =>
        ok({
          consent: { ...saved, version: 2, text: (request.body as { text: string }).text },
          changed: true,
        }),
      '/getSessionWithdrawals': () =>
        ok({
          withdrawals: [
            {
              withdrawal_id: '00000000-0000-4000-8000-0000000000ff',
              time: '2026-05-02T10:00:00.000Z',
              userId: '00000000-0000-4000-8000-0000000000cc',
              name: 'Quinn',
              email: 'quinn@example.org',
              messages: 2,
              clicks: 1,
            },
          ],
        }),
    });
    renderWithApi(<ConsentSection sessionId={sessionId} />);
    const field = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Consent text' });
    await waitFor(() => expect(field.value).toBe('Agree?'));
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save consent text' });
    expect(save.disabled).toBe(true);
    expect(screen.getByText(/1 participant agreed to it\./)).toBeTruthy();
    expect((await screen.findByRole('list', { name: 'Withdrawals' })).textContent).toContain(
      'Quinn quinn@example.org',
    );
    expect(screen.getByRole('list', { name: 'Withdrawals' }).textContent).toContain(
      '2 messages and 1 click deleted',
    );

    // Outer spaces are no change (the server trims): still nothing to save.
    fireEvent.change(field, { target: { value: 'Agree?  ' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'Agree to this?' } });
    expect(save.disabled).toBe(false);
    expect(api.to('/setSessionConsent')).toHaveLength(0);
    fireEvent.click(save);
    await waitFor(() => expect(api.to('/setSessionConsent')).toHaveLength(1));
    expect(api.to('/setSessionConsent')[0]?.body).toEqual({ sessionId, text: 'Agree to this?' });
  });

  it('shows the server’s refusal under the field', async () => {
    fakeApi({
      '/getSessionConsent': () => ok({ consent: null, acceptances: [] }),
      '/setSessionConsent': () => refused(400, 'text: must be at most 20000 characters', 'VALIDATION'),
      '/getSessionWithdrawals': () => ok({ withdrawals: [] }),
    });
    renderWithApi(<ConsentSection sessionId={sessionId} />);
    const field = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Consent text' });
    await waitFor(() => expect(field.disabled).toBe(false));
    expect(await screen.findByText('No participant has withdrawn.')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'x'.repeat(10) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save consent text' }));
    expect((await screen.findByRole('alert')).textContent).toBe('text: must be at most 20000 characters');
  });
});
