import type { SessionInfo } from '@uis/proto';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { ReplaySection } from './replay-section';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const info = (type: SessionInfo['type'], source = ''): SessionInfo => ({
  title: 'Pilot',
  scope: 'Everyone',
  type,
  track: '',
  source,
});
const message = (n: number, name: string, text: string, videoTime: number | null) => ({
  message_id: uuid(n),
  seq: String(n),
  message: text,
  time: `2025-01-01T10:00:0${n}.000Z`,
  name,
  videoTime,
  actionId: null,
});
const pixel = (n: number, name: string, videoTime: number | null) => ({
  pixel_id: uuid(100 + n),
  time: `2025-01-01T10:00:0${n}.000Z`,
  name,
  color: 'n/a',
  x: 0.5,
  y: 0.5,
  sessionId,
  videoTime,
});

function records() {
  return fakeApi({
    '/getVideoInfo': () => ok({ name: 'pilot.mp4' }),
    '/getMessages': () =>
      ok({
        messages: [
          message(1, 'Rhea', 'Welcome', null),
          message(2, 'Pat', 'Late one', 12),
          message(3, 'Quinn', 'Early one', 3),
        ],
      }),
    '/getPixels': () => ok({ pixels: [pixel(1, 'Zoe', 5), pixel(2, 'Zoe', null)] }),
    '/getPlayback': () =>
      ok({
        playback: [
          {
            playback_id: uuid(200),
            seq: '1',
            time: '2025-01-01T10:00:00.000Z',
            name: 'Rhea',
            event: 'play',
            videoTime: 0,
            playbackRate: 1,
            promptId: null,
          },
        ],
      }),
    '/getPrompts': () => ok({ prompts: [{ prompt_id: uuid(300), time: 8, duration: 5, prompt: 'Why?' }] }),
    '/getActions': () => ok({ actions: [] }),
  });
}

/** The list's entries by their text, as read (icons are hidden): each is named by what it shows. */
const listed = () =>
  within(screen.getByRole('region', { name: /^Events/ }))
    .getAllByRole('button')
    .map((button) => {
      const read = button.cloneNode(true) as HTMLElement;
      for (const hidden of read.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
      return read.textContent?.replace(/\s+/g, ' ').trim();
    });

describe('ReplaySection', () => {
  beforeEach(() => {
    // jsdom plays no media: the player stays loading, which is all these tests need of it.
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  });

  it('is not there for a chat session, nor for a video session with no video yet, nor a stream with no URL', async () => {
    const api = fakeApi({ '/getVideoInfo': () => ok({ name: null }) });
    renderWithApi(<ReplaySection sessionId={sessionId} info={info('chat')} />).unmount();
    expect(api.to('/getVideoInfo')).toHaveLength(0);
    renderWithApi(<ReplaySection sessionId={sessionId} info={info('stream', '  ')} />).unmount();
    renderWithApi(<ReplaySection sessionId={sessionId} info={info('video')} />);
    await vi.waitFor(() => expect(api.to('/getVideoInfo')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Replay' })).toBeNull();
  });

  it('loads the replay on demand, lists the events in video order, and filters them', async () => {
    const api = records();
    renderWithApi(<ReplaySection sessionId={sessionId} info={info('video')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show the replay' }));
    expect(api.to('/getMessages')).toHaveLength(0);

    // A marker on the timeline (an icon, named by a sentence) and an entry of the list (named by its text).
    expect(await screen.findByRole('button', { name: 'Message from Pat at 0:12: Late one' })).toBeTruthy();
    const entry = within(screen.getByRole('region', { name: /^Events/ })).getByRole('button', {
      name: '0:12 Message · Pat: Late one',
    });
    expect(entry.hasAttribute('aria-label')).toBe(false);
    expect(listed()).toEqual([
      '0:00 Play · Rhea',
      '0:03 Message · Quinn: Early one',
      '0:08 Prompt for 5 s: Why?',
      '0:12 Message · Pat: Late one',
    ]);
    expect(screen.getByLabelText('Replay video', { selector: 'video' }).getAttribute('src')).toBe(
      `/assets/${sessionId}/pilot.mp4`,
    );
    expect(screen.getByText('Not on the video: 2 records')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Participant'), { target: { value: 'Pat' } });
    expect(listed()).toEqual([
      '0:00 Play · Rhea',
      '0:08 Prompt for 5 s: Why?',
      '0:12 Message · Pat: Late one',
    ]);
    expect(screen.queryByText(/^Not on the video/)).toBeNull();

    fireEvent.change(screen.getByLabelText('Participant'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /^Playback/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /^Prompts/ }));
    expect(listed()).toEqual(['0:03 Message · Quinn: Early one', '0:12 Message · Pat: Late one']);
    expect(screen.queryByRole('toolbar', { name: /^Playback/ })).toBeNull();
    expect(screen.getByRole('toolbar', { name: 'Messages: 2 on the video' })).toBeTruthy();
    // The people who wrote or clicked, for the filter.
    expect(
      within(screen.getByLabelText('Participant'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Everyone', 'Pat', 'Quinn', 'Rhea', 'Zoe']);
  });
});
