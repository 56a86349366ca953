import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { RecordPanel } from './record-panel';
import { RECORD_PANEL_TEXTS } from '../../../i18n/en/records';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const pixel = {
  pixel_id: '0b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10',
  time: '2024-05-01T10:00:00.000Z',
  name: 'Bob',
  color: 'rgb(10, 20, 30)',
  x: 0.256,
  y: 0.5,
  sessionId,
  videoTime: 3,
};

describe('RecordPanel export', () => {
  const saved: { name: string; href: string }[] = [];
  beforeEach(() => {
    saved.length = 0;
    // The browser's download: the link saveFile clicks, and the blob URL it points at.
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL: () => {} }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
  });

  it('downloads the current tab named after the session and the kind, prompts included', async () => {
    const api = fakeApi({
      '/getSessionInfo': () =>
        ok({ sessionInfo: { title: 'Pilot: Café #2', scope: '[]', type: 'video', track: '', source: '' } }),
      '/getMessages': () => ok({ messages: [] }),
      '/getPixels': () => ok({ pixels: [pixel] }),
      '/getPrompts': () =>
        ok({ prompts: [{ prompt_id: pixel.pixel_id, time: 65, duration: 5, prompt: 'Why?' }] }),
      '/getPlayback': () => ok({ playback: [] }),
      '/exportRecords': () => ({ blob: new Blob(['header\r\n'], { type: 'text/csv' }) }),
    });
    renderWithApi(<RecordPanel sessionId={sessionId} />);
    // Export waits for the session's title, which names the file.
    await vi.waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export' }).disabled).toBe(false),
    );

    for (const [tab, kind] of [
      ['Messages', 'messages'],
      ['Pixels', 'pixels'],
      ['Prompts', 'prompts'],
      ['Playback', 'playback'],
    ] as const) {
      fireEvent.click(screen.getByRole('tab', { name: tab }));
      expect(screen.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
      fireEvent.click(screen.getByRole('button', { name: 'Export' }));
      await vi.waitFor(() => expect(saved).toHaveLength(api.to('/exportRecords').length));
      expect(api.to('/exportRecords').at(-1)?.query).toEqual({ sessionId, kind });
    }
    expect(saved.map((file) => file.name)).toEqual([
      'pilot-cafe-2-messages.csv',
      'pilot-cafe-2-pixels.csv',
      'pilot-cafe-2-prompts.csv',
      'pilot-cafe-2-playback.csv',
    ]);
  });

  it('lists pixels with who, time, video time, x and y as percentages, a swatch and delete; prompts with time', async () => {
    fakeApi({
      '/getMessages': () => ok({ messages: [] }),
      '/getPixels': () => ok({ pixels: [pixel] }),
      '/getPrompts': () =>
        ok({ prompts: [{ prompt_id: pixel.pixel_id, time: 65, duration: 5, prompt: 'Why?' }] }),
    });
    renderWithApi(<RecordPanel sessionId={sessionId} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Pixels' }));
    const row = (await screen.findByText('Bob')).closest('tr')!;
    const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent);
    expect(cells[2]).toBe('video time 0:03.0');
    expect(cells.slice(3, 5)).toEqual(['26%', '50%']);
    expect(row.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('rgb(10, 20, 30)');
    expect(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.deleteClick })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Prompts' }));
    expect(await screen.findByText('00:01:05')).toBeTruthy();
    expect(screen.getByText('Why?')).toBeTruthy();
  });

  it('lists the playback log with wall and video time, the event, the speed, and a fired prompt’s text', async () => {
    const promptId = '7a1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
    const entry = (event: string, videoTime: number, extra = {}) => ({
      playback_id: crypto.randomUUID(),
      seq: '1',
      time: '2024-05-01T10:00:00.000Z',
      name: 'Rhea',
      event,
      videoTime,
      playbackRate: 1,
      promptId: null,
      ...extra,
    });
    fakeApi({
      '/getMessages': () => ok({ messages: [] }),
      '/getPrompts': () => ok({ prompts: [{ prompt_id: promptId, time: 65, duration: 5, prompt: 'Why?' }] }),
      '/getPlayback': () =>
        ok({
          playback: [
            entry('play', 0),
            entry('seek', 3723.45),
            entry('rate', 3724, { playbackRate: 1.5 }),
            entry('prompt', 3725, { playbackRate: 1.5, promptId }),
          ],
        }),
    });
    renderWithApi(<RecordPanel sessionId={sessionId} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Playback' }));
    await screen.findByText('Play');
    const rows = [...document.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].slice(1).map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['video time 0:00.0', 'Play', '1×', 'Rhea'],
      ['video time 1:02:03.5', 'Seek', '1×', 'Rhea'],
      ['video time 1:02:04.0', 'Speed', '1.5×', 'Rhea'],
      ['video time 1:02:05.0', 'Prompt Why?', '1.5×', 'Rhea'],
    ]);
  });
});
