import { act, fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { EditSessionPage } from '../../../pages/edit-session-page';
import { PATHS } from '../../../routes';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { EDITOR_TEXTS } from '../../../i18n/en/editor';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

/** The window's size and the device screen's, as useLayout reads them. */
function resize(width: number, height: number, screen: { width: number; height: number }) {
  Object.assign(window, { innerWidth: width, innerHeight: height });
  Object.defineProperty(window.screen, 'width', { value: screen.width, configurable: true });
  Object.defineProperty(window.screen, 'height', { value: screen.height, configurable: true });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

async function openEditor() {
  const api = fakeApi({
    '/getSessionInfo': () =>
      ok({
        sessionInfo: {
          title: 'Pilot',
          scope: 'Everyone',
          type: 'chat',
          track: '',
          source: '',
          completionUrl: null,
        },
      }),
    '/getAllParticipants': () => ok({ participants: [] }),
    '/getActions': () => ok({ actions: [] }),
    '/getPrompts': () => ok({ prompts: [] }),
    '/getMessages': () => ok({ messages: [] }),
  });
  renderWithApi(
    <Routes>
      <Route path={PATHS.editSession} element={<EditSessionPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    `/editSession/:${sessionId}`,
  );
  await screen.findByRole('heading', { name: 'Pilot' });
  return api;
}

describe('session editor screen', () => {
  it('loads the session named after the colon, with Start and the back arrow', async () => {
    const api = await openEditor();
    expect(api.to('/getSessionInfo')[0]?.query).toEqual({ sessionId });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByTestId('where').textContent).toBe(`/liveSession/:${sessionId}`);
  });

  it('goes back to the dashboard', async () => {
    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: EDITOR_TEXTS.backToDashboard }));
    expect(screen.getByTestId('where').textContent).toBe('/dashboard');
  });

  it('shows the edit panel without a toggle at 1200x800 on a desktop', async () => {
    await openEditor();
    resize(1200, 800, { width: 1920, height: 1080 });
    expect(screen.queryByRole('button', { name: EDITOR_TEXTS.hideEditPanel })).toBeNull();
    expect(screen.getByRole('textbox', { name: EDITOR_TEXTS.title })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Pilot' }).className).not.toContain('small');
  });

  it('folds the edit panel under 850 and on a phone, with a small caption under 460', async () => {
    await openEditor();
    resize(849, 800, { width: 1920, height: 1080 });
    const toggle = screen.getByRole('button', { name: EDITOR_TEXTS.hideEditPanel });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(screen.queryByRole('textbox', { name: EDITOR_TEXTS.title })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: EDITOR_TEXTS.showEditPanel }));
    expect(screen.getByRole('textbox', { name: EDITOR_TEXTS.title })).toBeTruthy();

    resize(1000, 700, { width: 1000, height: 700 });
    expect(screen.getByRole('button', { name: EDITOR_TEXTS.hideEditPanel })).toBeTruthy();

    resize(390, 844, { width: 390, height: 844 });
    expect(screen.getByRole('heading', { name: 'Pilot' }).className).toContain('small');
  });
});
