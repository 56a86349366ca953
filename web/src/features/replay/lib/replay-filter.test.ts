import { describe, expect, it } from 'vitest';
import { REPLAY_KINDS, type ReplayClick, type ReplayEvent, type ReplayKind } from './replay-events';
import { filterClicks, filterEvents, filterOffVideo, peopleOf } from './replay-filter';

const events: ReplayEvent[] = [
  { id: 'p1', kind: 'playback', event: 'play', rate: 1, at: 0, who: 'Rhea', text: '', time: null },
  { id: 'q1', kind: 'prompt', source: 'set', duration: 3, at: 2, who: null, text: 'Why?', time: null },
  { id: 'm1', kind: 'message', at: 3, who: 'Pat', text: 'Hi', time: null },
  { id: 'r1', kind: 'reaction', action: null, at: 4, who: 'Quinn', text: 'Applause', time: null },
  { id: 'm2', kind: 'message', at: 5, who: 'Rhea', text: 'Look', time: null },
];
const clicks: ReplayClick[] = [
  { id: 'c1', at: 1, x: 0.1, y: 0.1, who: 'Pat' },
  { id: 'c2', at: 2, x: 0.2, y: 0.2, who: 'Zoe' },
  { id: 'c3', at: 3, x: 0.3, y: 0.3, who: 'Pat' },
];
const all: ReadonlySet<ReplayKind> = new Set(REPLAY_KINDS);
const ids = (list: readonly { id: string }[]) => list.map(({ id }) => id);

describe('replay filters', () => {
  it('shows everything for everyone with every kind', () => {
    expect(ids(filterEvents(events, { who: null, kinds: all }))).toEqual(['p1', 'q1', 'm1', 'r1', 'm2']);
    expect(filterClicks(clicks, { who: null, kinds: all })).toBe(clicks);
  });

  it("narrows people's records to one person, keeping prompts and playback", () => {
    expect(ids(filterEvents(events, { who: 'Pat', kinds: all }))).toEqual(['p1', 'q1', 'm1']);
    expect(ids(filterClicks(clicks, { who: 'Pat', kinds: all }))).toEqual(['c1', 'c3']);
  });

  it('hides the kinds not chosen', () => {
    const kinds = new Set<ReplayKind>(['message', 'prompt']);
    expect(ids(filterEvents(events, { who: null, kinds }))).toEqual(['q1', 'm1', 'm2']);
    expect(filterClicks(clicks, { who: null, kinds })).toEqual([]);
  });

  it('filters what is not on the video alike', () => {
    const off = {
      offVideoMessages: [
        { id: 'm9', kind: 'message' as const, who: 'Pat', text: 'Hi', time: '' },
        { id: 'r9', kind: 'reaction' as const, who: 'Zoe', text: 'Applause', time: '' },
      ],
      offVideoClicks: [
        { id: 'c8', who: 'Pat' },
        { id: 'c9', who: 'Zoe' },
      ],
    };
    expect(filterOffVideo(off, { who: null, kinds: all })).toEqual({
      messages: off.offVideoMessages,
      clicks: 2,
    });
    expect(filterOffVideo(off, { who: 'Zoe', kinds: all })).toEqual({
      messages: [off.offVideoMessages[1]],
      clicks: 1,
    });
    expect(filterOffVideo(off, { who: null, kinds: new Set<ReplayKind>(['message']) })).toEqual({
      messages: [off.offVideoMessages[0]],
      clicks: 0,
    });
  });

  it('offers everyone who wrote, reacted or clicked, alphabetically, once each', () => {
    expect(peopleOf(events, clicks, [{ who: 'Ann' }])).toEqual(['Ann', 'Pat', 'Quinn', 'Rhea', 'Zoe']);
    // The researcher who only played is not offered.
    expect(peopleOf(events.slice(0, 2), [])).toEqual([]);
  });
});
