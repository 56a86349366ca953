import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, type ApiRequest } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { RecordPanel } from './record-panel';
import { RECORD_PANEL_TEXTS } from '../../../i18n/en/records';

/**
 * Records lists answer a page at a time (`next`, sent back as `after`): the panel reads every page,
 * so a researcher still sees every record of a long session.
 */
const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const time = '2024-05-01T10:00:00.000Z';

const message = (n: number) => ({
  message_id: uuid(n),
  seq: String(n),
  message: `message ${n}`,
  time,
  name: `Writer ${n}`,
  videoTime: null,
  actionId: null,
});
const pixel = (n: number) => ({
  pixel_id: uuid(n),
  time,
  name: `Clicker ${n}`,
  color: '#ff0000',
  x: 0.5,
  y: 0.5,
  sessionId,
  videoTime: null,
});
const entry = (n: number) => ({
  playback_id: uuid(n),
  seq: String(n),
  time,
  name: `Player ${n}`,
  event: 'seek',
  videoTime: n,
  playbackRate: 1,
  promptId: null,
});
const check = (n: number) => ({
  device_check_id: uuid(n),
  time,
  userId: uuid(100 + n),
  name: `Checker ${n}`,
  email: `c${n}@uni.test`,
  browserName: 'Firefox',
  browserVersion: '128',
  camera: 'pass',
  microphone: 'pass',
  speakers: 'pass',
  stun: 'pass',
  turn: 'pass',
  rtt: 'pass',
  rttMs: null,
});

/** A list of five records served in pages of two, as records pages (the cursor: the last id of a page). */
function paged<T>(list: string, make: (n: number) => T, idOf: (record: T) => string) {
  const all = [1, 2, 3, 4, 5].map(make);
  return ({ query }: ApiRequest) => {
    const start = query.after === undefined ? 0 : all.findIndex((record) => idOf(record) === query.after) + 1;
    if (query.sessionId !== sessionId || start < 0) return refused(404, 'No such record in this session.');
    const page = all.slice(start, start + 2);
    const next = start + 2 < all.length ? idOf(page.at(-1)!) : null;
    return ok({ [list]: page, next });
  };
}

describe('the record panel reads every page', () => {
  it.each([
    ['Messages', '/getMessages', 'Writer'],
    ['Pixels', '/getPixels', 'Clicker'],
    ['Playback', '/getPlayback', 'Player'],
    [RECORD_PANEL_TEXTS.deviceChecks, '/getDeviceChecks', 'Checker'],
  ])('%s: all five records, fetched in three pages chained by after', async (tab, path, who) => {
    const api = fakeApi({
      '/getMessages': paged('messages', message, (m) => m.message_id),
      '/getPixels': paged('pixels', pixel, (p) => p.pixel_id),
      '/getPlayback': paged('playback', entry, (e) => e.playback_id),
      '/getDeviceChecks': paged('checks', check, (c) => c.device_check_id),
      '/getPrompts': () => ok({ prompts: [] }),
    });
    renderWithApi(<RecordPanel sessionId={sessionId} />);
    fireEvent.click(screen.getByRole('tab', { name: tab }));
    expect(await screen.findByText(`${who} 5`)).toBeTruthy();
    for (const n of [1, 2, 3, 4]) expect(screen.getByText(`${who} ${n}`)).toBeTruthy();
    expect(api.to(path).map((request) => request.query)).toEqual([
      { sessionId },
      { sessionId, after: uuid(2) },
      { sessionId, after: uuid(4) },
    ]);
  });

  it('takes an answer without `next` (a server from before paging) as the whole list', async () => {
    const api = fakeApi({ '/getMessages': () => ok({ messages: [message(1), message(2)] }) });
    renderWithApi(<RecordPanel sessionId={sessionId} />);
    expect(await screen.findByText('Writer 2')).toBeTruthy();
    expect(api.to('/getMessages')).toHaveLength(1);
  });
});
