import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Group, Session } from '@uis/proto';
import Cookies from 'js-cookie';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireUser } from '../../../signed-in/route-guards';
import { fakeApi, ok, refused, type ApiAnswer, type ApiRequest } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { Dashboard } from './dashboard';
import { DASHBOARD_TEXTS } from '../../../i18n/en/dashboard';
import { COMMON_TEXTS } from '../../../i18n/en/common';

// jsdom's screen is 0x0, which reads as a phone; this file checks the desktop layout (1024 wide).
vi.hoisted(() => {
  Object.defineProperty(window.screen, 'width', { value: 1920 });
  Object.defineProperty(window.screen, 'height', { value: 1080 });
});

const researcher = {
  id: '00000000-0000-4000-8000-0000000000aa',
  email: 'rita@example.org',
  name: 'Rita',
  type: 'researcher',
};
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A researcher's groups and sessions held in memory, answering like the studies service. */
function studies(groups: Group[], sessions: Record<string, Session[]> = {}) {
  let next = 100;
  const body = (sent: ApiRequest) => sent.body as Record<string, string>;
  return fakeApi({
    '/getUserFromToken': () => ok({ user: researcher }),
    '/getGroups': () => ok({ groups: [...groups] }),
    '/createGroup': (): ApiAnswer => {
      const group = { group_id: uuid(next++), title: 'New group' };
      groups.push(group);
      return ok({ group });
    },
    '/editGroup': (sent) => {
      const group = groups.find((g) => g.group_id === body(sent).groupId);
      if (group) group.title = body(sent).title!;
      return ok({ message: 'ok' });
    },
    '/deleteGroup': (sent) => {
      groups.splice(
        groups.findIndex((g) => g.group_id === body(sent).groupId),
        1,
      );
      return ok({ message: 'ok' });
    },
    '/getSessions': (sent) => ok({ sessions: sessions[sent.query.groupId!] ?? [] }),
    '/createSession': (sent) => {
      const session: Session = {
        session_id: uuid(next++),
        title: 'New session',
        type: 'video',
        scope: 'Everyone',
        track: '',
        source: '',
      };
      (sessions[body(sent).groupId!] ??= []).push(session);
      return ok({ session });
    },
    '/deleteSession': () => refused(503, 'content is down'),
  });
}

const renderDashboard = () =>
  renderScreen(
    '/dashboard',
    '/dashboard',
    <RequireUser type="researcher">
      <Dashboard />
    </RequireUser>,
    { '/editSession/:sessionId': <Here name="editor" /> },
  );

const groupRow = (title: string) => screen.getByRole('button', { name: title }).closest('li')!;

describe('Dashboard', () => {
  beforeEach(() => {
    Cookies.set('accessToken', 'access');
    Cookies.set('refreshToken', 'refresh');
    sessionStorage.clear();
  });
  afterEach(() => {
    Cookies.remove('accessToken');
    Cookies.remove('refreshToken');
  });

  it('greets the user and asks for a group first when there is none', async () => {
    studies([]);
    renderDashboard();
    expect(await screen.findByText('Create a group first')).toBeTruthy();
    expect(screen.getByText('Hello, Rita')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Sessions' })).toBeNull();
  });

  it('selects the first group, and a created group, and shows its session cards', async () => {
    studies(
      [
        { group_id: uuid(1), title: 'Pilot' },
        { group_id: uuid(2), title: 'Main' },
      ],
      {
        [uuid(1)]: [
          {
            session_id: uuid(11),
            title: 'Warm-up',
            type: 'stream',
            scope: 'Everyone',
            track: '',
            source: '',
          },
        ],
      },
    );
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'Pilot' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: /Warm-up/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pilot' }).getAttribute('aria-current')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Create Group' }));
    expect(await screen.findByRole('heading', { name: 'New group' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Add session' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Warm-up/ })).toBeNull();
  });

  it('falls back to the first group when the selected one is deleted', async () => {
    const server = studies([
      { group_id: uuid(1), title: 'Pilot' },
      { group_id: uuid(2), title: 'Main' },
    ]);
    renderDashboard();
    fireEvent.click(await screen.findByRole('button', { name: 'Main' }));
    expect(await screen.findByRole('heading', { name: 'Main' })).toBeTruthy();

    fireEvent.click(within(groupRow('Main')).getByRole('button', { name: DASHBOARD_TEXTS.deleteGroup }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Main' })).toBeNull());
    expect(screen.getByRole('heading', { name: 'Pilot' })).toBeTruthy();
    expect(server.to('/deleteGroup').map((sent) => sent.body)).toEqual([{ groupId: uuid(2) }]);
  });

  it('renames a group 1 s after typing stops and shows the new title from then on', async () => {
    const server = studies([{ group_id: uuid(1), title: 'Pilot' }]);
    renderDashboard();
    fireEvent.click(await screen.findByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Group title' }), {
      target: { value: 'Pilot study' },
    });
    expect(server.to('/editGroup')).toHaveLength(0);

    expect(await screen.findByRole('button', { name: 'Pilot study' }, { timeout: 2_000 })).toBeTruthy();
    expect(server.to('/editGroup').map((sent) => sent.body)).toEqual([
      { groupId: uuid(1), title: 'Pilot study' },
    ]);
    // The list was refetched after the change.
    await waitFor(() => expect(server.to('/getGroups').length).toBeGreaterThanOrEqual(2));
    expect(screen.getByRole('heading', { name: 'Pilot study' })).toBeTruthy();
  });

  it('adds a session to the selected group and opens a card in the editor', async () => {
    const server = studies([{ group_id: uuid(1), title: 'Pilot' }]);
    renderDashboard();
    fireEvent.click(await screen.findByRole('button', { name: 'Add session' }));
    const card = await screen.findByRole('button', { name: /New session/ });
    expect(server.to('/createSession').map((sent) => sent.body)).toEqual([
      { groupId: uuid(1), email: 'rita@example.org' },
    ]);

    fireEvent.click(card);
    await waitFor(() =>
      expect(screen.getByTestId('here').textContent).toBe(`editor /editSession/:${uuid(100)}`),
    );
  });

  it("toasts 'Internal error' and keeps the card when a delete fails", async () => {
    studies([{ group_id: uuid(1), title: 'Pilot' }], {
      [uuid(1)]: [
        { session_id: uuid(11), title: 'Warm-up', type: 'chat', scope: 'Everyone', track: '', source: '' },
      ],
    });
    render(<Toaster />);
    renderDashboard();
    const card = (await screen.findByRole('button', { name: /Warm-up/ })).closest('li')!;
    fireEvent.click(within(card).getByRole('button', { name: COMMON_TEXTS.deleteSession }));
    expect(await screen.findByText('Internal error')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Warm-up/ })).toBeTruthy();
  });
});
