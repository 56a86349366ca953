import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Group, Session } from '@uis/proto';
import Cookies from 'js-cookie';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireUser } from '../../../signed-in/route-guards';
import { fakeApi, ok, refused, type ApiAnswer, type ApiRequest } from '../../../testing/fake-api';
import { Here, renderScreen } from '../../../testing/render';
import { Dashboard } from './dashboard';
import {
  DASHBOARD_TEXTS,
  DELETION_TEXTS,
  deleteGroupHeading,
  deleteSessionHeading,
} from '../../../i18n/en/dashboard';
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

/** What records and content answer about a session or a group: its counts, and each session's video. */
interface Holdings {
  counts?: (query: Record<string, string>) => ApiAnswer;
  videos?: Record<string, string>;
}

/**
 * A researcher's groups and sessions held in memory, answering like the studies service, with records'
 * counts and content's video names (none by default).
 */
function studies(groups: Group[], sessions: Record<string, Session[]> = {}, holdings: Holdings = {}) {
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
    '/getRecordCounts': (sent) =>
      holdings.counts?.(sent.query) ??
      ok({
        sessions: sent.query.groupId ? (sessions[sent.query.groupId]?.length ?? 0) : 1,
        messages: 0,
        clicks: 0,
      }),
    '/getVideoInfo': (sent) => ok({ name: holdings.videos?.[sent.query.sessionId!] ?? null }),
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
const confirmIn = (dialog: HTMLElement, label: string) =>
  within(dialog).getByRole<HTMLButtonElement>('button', { name: label });
const session = (n: number, title: string, type: Session['type']): Session => ({
  session_id: uuid(n),
  title,
  type,
  scope: 'Everyone',
  track: '',
  source: '',
});

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
    const dialog = await screen.findByRole('alertdialog', { name: deleteGroupHeading('Main') });
    await within(dialog).findByText(/It has no sessions/);
    fireEvent.click(within(dialog).getByRole('button', { name: DELETION_TEXTS.deleteGroup }));
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
    const dialog = await screen.findByRole('alertdialog', { name: deleteSessionHeading('Warm-up') });
    await waitFor(() => expect(confirmIn(dialog, DELETION_TEXTS.deleteSession).disabled).toBe(false));
    fireEvent.click(confirmIn(dialog, DELETION_TEXTS.deleteSession));
    expect(await screen.findByText('Internal error')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('button', { name: /Warm-up/ })).toBeTruthy();
  });

  it('asks before deleting a session, saying how many messages and clicks and which video go with it; Cancel keeps it', async () => {
    const server = studies(
      [{ group_id: uuid(1), title: 'Pilot' }],
      { [uuid(1)]: [session(11, 'Warm-up', 'video')] },
      {
        counts: () => ok({ sessions: 1, messages: 12, clicks: 1 }),
        videos: { [uuid(11)]: 'intro.mp4' },
      },
    );
    renderDashboard();
    const card = (await screen.findByRole('button', { name: /Warm-up/ })).closest('li')!;
    const deleteIcon = within(card).getByRole('button', { name: COMMON_TEXTS.deleteSession });
    deleteIcon.focus();
    fireEvent.click(deleteIcon);
    const dialog = await screen.findByRole('alertdialog', { name: deleteSessionHeading('Warm-up') });
    expect(within(dialog).getByText(DELETION_TEXTS.counting)).toBeTruthy();
    expect(confirmIn(dialog, DELETION_TEXTS.deleteSession).disabled).toBe(true);
    expect(
      await within(dialog).findByText(
        'Deleting it also deletes its 12 messages and 1 click, and its uploaded video “intro.mp4”. This cannot be undone. Export the study first if you need its records.',
      ),
    ).toBeTruthy();
    // StrictMode mounts twice: the same question may go twice.
    expect(new Set(server.to('/getRecordCounts').map((sent) => JSON.stringify(sent.query)))).toEqual(
      new Set([JSON.stringify({ sessionId: uuid(11) })]),
    );

    fireEvent.click(within(dialog).getByRole('button', { name: COMMON_TEXTS.cancel }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(deleteIcon);
    expect(server.to('/deleteSession')).toHaveLength(0);
  });

  it('says a video session has no uploaded video, and nothing of videos for a chat session', async () => {
    studies([{ group_id: uuid(1), title: 'Pilot' }], {
      [uuid(1)]: [session(11, 'Warm-up', 'video'), session(12, 'Call', 'chat')],
    });
    renderDashboard();
    const open = async (title: string) => {
      const card = (await screen.findByRole('button', { name: new RegExp(title) })).closest('li')!;
      fireEvent.click(within(card).getByRole('button', { name: COMMON_TEXTS.deleteSession }));
      return screen.findByRole('alertdialog', { name: deleteSessionHeading(title) });
    };
    const video = await open('Warm-up');
    expect(
      await within(video).findByText(
        'It has no messages or clicks yet. It has no uploaded video. This cannot be undone.',
      ),
    ).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    const chat = await open('Call');
    expect(
      await within(chat).findByText('It has no messages or clicks yet. This cannot be undone.'),
    ).toBeTruthy();
  });

  it("asks before deleting a group, with its sessions' messages, clicks and uploaded videos in all", async () => {
    const server = studies(
      [
        { group_id: uuid(1), title: 'Pilot' },
        { group_id: uuid(2), title: 'Main' },
      ],
      {
        [uuid(2)]: [session(21, 'One', 'video'), session(22, 'Two', 'video'), session(23, 'Three', 'chat')],
      },
      {
        counts: (query) =>
          query.groupId === uuid(2)
            ? ok({ sessions: 3, messages: 40, clicks: 0 })
            : refused(500, 'wrong group'),
        videos: { [uuid(21)]: 'a.mp4', [uuid(22)]: 'b.mp4' },
      },
    );
    renderDashboard();
    await screen.findByRole('heading', { name: 'Pilot' });
    fireEvent.click(within(groupRow('Main')).getByRole('button', { name: DASHBOARD_TEXTS.deleteGroup }));
    const dialog = await screen.findByRole('alertdialog', { name: deleteGroupHeading('Main') });
    expect(
      await within(dialog).findByText(
        'Deleting it also deletes its 3 sessions, with 40 messages in all, and 2 uploaded videos. This cannot be undone. Export the study first if you need its records.',
      ),
    ).toBeTruthy();
    expect(
      server
        .to('/getVideoInfo')
        .map((sent) => sent.query.sessionId)
        .sort(),
    ).toEqual([uuid(21), uuid(22)]);
    fireEvent.click(confirmIn(dialog, DELETION_TEXTS.deleteGroup));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Main' })).toBeNull());
    expect(server.to('/deleteGroup').map((sent) => sent.body)).toEqual([{ groupId: uuid(2) }]);
  });

  it('still lets the researcher delete when the records cannot be counted, saying so', async () => {
    const server = studies(
      [
        { group_id: uuid(1), title: 'Pilot' },
        { group_id: uuid(2), title: 'Main' },
      ],
      {},
      { counts: () => refused(503, 'studies is down') },
    );
    renderDashboard();
    await screen.findByRole('heading', { name: 'Pilot' });
    fireEvent.click(within(groupRow('Main')).getByRole('button', { name: DASHBOARD_TEXTS.deleteGroup }));
    const dialog = await screen.findByRole('alertdialog', { name: deleteGroupHeading('Main') });
    expect(
      await within(dialog).findByText(`${DELETION_TEXTS.notCounted} ${DELETION_TEXTS.cannotUndo}`),
    ).toBeTruthy();
    fireEvent.click(confirmIn(dialog, DELETION_TEXTS.deleteGroup));
    await waitFor(() => expect(server.to('/deleteGroup')).toHaveLength(1));
  });
});
