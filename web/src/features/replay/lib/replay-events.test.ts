import type { Action, MessageRecord, PixelRecord, PlaybackRecord, Prompt } from '@uis/proto';
import { describe, expect, it } from 'vitest';
import { compareEvents, eventLabel, replayData, type ReplayEvent } from './replay-events';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sessionId = uuid(999);
const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, second)).toISOString();

const applause: Action = {
  action_id: uuid(50),
  name: 'Applause',
  color: '#e91e63',
  icon: 'celebration',
  type: 'outlined',
};
const prompt: Prompt = { prompt_id: uuid(60), time: 2, duration: 3, prompt: 'What do you notice?' };

const message = (n: number, fields: Partial<MessageRecord>): MessageRecord => ({
  message_id: uuid(n),
  seq: String(n),
  message: `message ${n}`,
  time: at(n),
  name: 'Pat',
  videoTime: null,
  actionId: null,
  ...fields,
});
const pixel = (n: number, fields: Partial<PixelRecord>): PixelRecord => ({
  pixel_id: uuid(100 + n),
  time: at(n),
  name: 'Pat',
  color: 'n/a',
  x: 0.5,
  y: 0.5,
  sessionId,
  videoTime: null,
  ...fields,
});
const played = (n: number, fields: Partial<PlaybackRecord>): PlaybackRecord => ({
  playback_id: uuid(200 + n),
  seq: String(n),
  time: at(n),
  name: 'Rhea',
  event: 'play',
  videoTime: 0,
  playbackRate: 1,
  promptId: null,
  ...fields,
});

describe('replayData', () => {
  const data = replayData({
    messages: [
      message(1, { message: 'Welcome', name: 'Rhea' }),
      message(5, { message: 'Hello', videoTime: 3.5 }),
      message(6, { message: 'Pat reacted with Applause', actionId: applause.action_id, videoTime: 6 }),
      message(7, { message: 'Quinn reacted with Gone', name: 'Quinn', actionId: uuid(51), videoTime: 6 }),
    ],
    pixels: [pixel(1, { videoTime: 9, x: 0.75 }), pixel(2, { videoTime: 4 }), pixel(3, {})],
    playback: [
      played(2, {}),
      played(4, { event: 'prompt', videoTime: 2, promptId: prompt.prompt_id }),
      played(4, { event: 'pause', videoTime: 2 }),
      played(8, { event: 'seek', videoTime: 25 }),
      played(9, { event: 'rate', videoTime: 25, playbackRate: 1.5 }),
      played(10, { event: 'prompt', videoTime: 30, promptId: uuid(61) }),
    ],
    prompts: [prompt],
    actions: [applause],
  });

  it('puts every event with a video time in video order, set prompts before what happened at their second', () => {
    expect(data.events.map((event) => eventLabel(event))).toEqual([
      'Play by Rhea at 0:00',
      'Prompt at 0:02 for 3 s: What do you notice?',
      'Prompt fired by Rhea at 0:02: What do you notice?',
      'Pause by Rhea at 0:02',
      'Message from Pat at 0:03: Hello',
      'Reaction from Pat at 0:06: Applause',
      'Reaction from Quinn at 0:06: Quinn reacted with Gone',
      'Seek by Rhea to 0:25',
      'Speed 1.5× by Rhea at 0:25',
      'Prompt fired by Rhea at 0:30: A deleted prompt',
    ]);
  });

  it('keeps the action of a reaction, and the sentence of one whose action is gone', () => {
    const reactions = data.events.filter((event) => event.kind === 'reaction');
    expect(reactions.map((event) => event.action?.icon ?? null)).toEqual(['celebration', null]);
  });

  it('lists messages with no video time apart, and counts such clicks', () => {
    expect(data.offVideoMessages).toEqual([
      { id: `message:${uuid(1)}`, kind: 'message', who: 'Rhea', text: 'Welcome', time: at(1) },
    ]);
    expect(data.offVideoClicks).toEqual([{ id: `click:${uuid(103)}`, who: 'Pat' }]);
  });

  it('orders clicks by video time', () => {
    expect(data.clicks.map((click) => [click.at, click.x, click.who])).toEqual([
      [4, 0.5, 'Pat'],
      [9, 0.75, 'Pat'],
    ]);
  });
});

describe('compareEvents', () => {
  const base = { who: 'Pat', text: '' };
  const event = (id: string, fields: { at: number; time: string | null }): ReplayEvent => ({
    ...base,
    ...fields,
    id,
    kind: 'message',
  });

  it('orders by video time, then server time, then id', () => {
    const list = [
      event('c', { at: 2, time: at(1) }),
      event('b', { at: 1, time: at(5) }),
      event('a', { at: 1, time: at(5) }),
      event('d', { at: 1, time: at(2) }),
    ];
    expect(list.sort(compareEvents).map(({ id }) => id)).toEqual(['d', 'a', 'b', 'c']);
  });
});
