import { playbackEvents } from './playback-log';

describe("the playback log's reading of the researcher's statuses", () => {
  const playing = { paused: false, currentTime: 10, playbackRate: 1, at: 100_000 };

  it('logs the first status as a play only when it plays', () => {
    expect(playbackEvents(null, playing)).toEqual(['play']);
    expect(playbackEvents(null, { ...playing, paused: true, currentTime: 0 })).toEqual([]);
  });

  it('logs nothing for a status where the previous one would have the video by now', () => {
    // 5 s later at rate 1: 15 s, give or take the tolerance (a sync answer, a confirmation).
    expect(playbackEvents(playing, { ...playing, currentTime: 15.4, at: 105_000 })).toEqual([]);
    const paused = { ...playing, paused: true };
    expect(playbackEvents(paused, { ...paused, at: 160_000 })).toEqual([]);
  });

  it('logs a pause, a play and a rate change', () => {
    expect(playbackEvents(playing, { ...playing, paused: true, currentTime: 12, at: 102_000 })).toEqual([
      'pause',
    ]);
    const paused = { ...playing, paused: true, currentTime: 12 };
    expect(playbackEvents(paused, { ...paused, paused: false, at: 900_000 })).toEqual(['play']);
    expect(playbackEvents(playing, { ...playing, playbackRate: 2, currentTime: 12, at: 102_000 })).toEqual([
      'rate',
    ]);
  });

  it('logs a jump either way as a seek, at its rate, before the play that follows it', () => {
    expect(playbackEvents(playing, { ...playing, currentTime: 60, at: 101_000 })).toEqual(['seek']);
    expect(playbackEvents(playing, { ...playing, currentTime: 2, at: 101_000 })).toEqual(['seek']);
    // At rate 2, 4 s later the video is 8 s on: no seek.
    const fast = { ...playing, playbackRate: 2 };
    expect(playbackEvents(fast, { ...fast, currentTime: 18, at: 104_000 })).toEqual([]);
    const paused = { ...playing, paused: true };
    expect(playbackEvents(paused, { ...playing, currentTime: 30, at: 101_000 })).toEqual(['seek', 'play']);
  });
});
