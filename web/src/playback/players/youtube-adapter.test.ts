import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlayerEvent } from './player';
import {
  YOUTUBE_PLAY_START_MS,
  YOUTUBE_POLL_MS,
  YOUTUBE_SEEK_SETTLE_MS,
  YouTubeAdapter,
} from './youtube-adapter';
import { YT_STATE, type YouTubePlayerLike } from './youtube-iframe-api';

/**
 * The least of a YT.Player: it does what it is told (time only moves when the test moves it) and
 * reports nothing by itself; the tests play YouTube's part by calling the adapter's event handlers.
 */
class FakeYouTubePlayer implements YouTubePlayerLike {
  state: number = YT_STATE.CUED;
  time = 0;
  rate = 1;
  isMutedNow = false;
  readonly calls: string[] = [];
  playVideo = () => void this.calls.push('playVideo');
  pauseVideo = () => void this.calls.push('pauseVideo');
  seekTo = (seconds: number, allowSeekAhead: boolean) =>
    void this.calls.push(`seekTo ${seconds} ${allowSeekAhead}`);
  setPlaybackRate = (rate: number) => void this.calls.push(`setPlaybackRate ${rate}`);
  getPlaybackRate = () => this.rate;
  getCurrentTime = () => this.time;
  getPlayerState = () => this.state;
  mute = () => void this.calls.push('mute');
  unMute = () => void this.calls.push('unMute');
  isMuted = () => this.isMutedNow;
  destroy = () => void this.calls.push('destroy');
}

const EVENTS: PlayerEvent[] = ['play', 'pause', 'seeked', 'ratechange', 'timeupdate', 'ended'];

function setup(state: number = YT_STATE.CUED) {
  const player = new FakeYouTubePlayer();
  player.state = state;
  const onDestroy = vi.fn();
  const adapter = new YouTubeAdapter(player, { now: () => Date.now(), onDestroy });
  const events: PlayerEvent[] = [];
  for (const event of EVENTS) adapter.on(event, () => events.push(event));
  /** YouTube reports a state (the player's own and the event). */
  const report = (next: number) => {
    player.state = next;
    adapter.stateChanged(next);
  };
  /** `ms` pass; a playing video moves on by them at its rate. */
  const pass = (ms: number) => {
    if (ms === 0) vi.advanceTimersByTime(0);
    for (let left = ms; left > 0; left -= 10) {
      const step = Math.min(10, left);
      if (player.state === YT_STATE.PLAYING) player.time += (step / 1000) * player.rate;
      vi.advanceTimersByTime(step);
    }
  };
  const taken = () => events.splice(0);
  return { player, adapter, events, report, pass, taken, onDestroy };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('YouTubeAdapter: YouTube events to player events', () => {
  it('maps onStateChange to play, pause and ended, once per change, buffering and unstarted saying nothing', () => {
    const { adapter, report, taken } = setup();
    expect(adapter.paused()).toBe(true);
    report(YT_STATE.UNSTARTED);
    report(YT_STATE.BUFFERING);
    expect(taken()).toEqual([]);
    report(YT_STATE.PLAYING);
    report(YT_STATE.PLAYING);
    expect(adapter.paused()).toBe(false);
    report(YT_STATE.BUFFERING);
    expect(adapter.paused()).toBe(false);
    report(YT_STATE.PAUSED);
    expect(adapter.paused()).toBe(true);
    report(YT_STATE.PLAYING);
    report(YT_STATE.ENDED);
    expect(adapter.paused()).toBe(true);
    expect(taken()).toEqual(['play', 'pause', 'play', 'pause', 'ended']);
  });

  it('maps onPlaybackRateChange to ratechange', () => {
    const { adapter, player, taken } = setup();
    player.rate = 1.5;
    adapter.rateChanged();
    expect(taken()).toEqual(['ratechange']);
    expect(adapter.playbackRate()).toBe(1.5);
  });

  it('polls a timeupdate while playing, and none while paused', () => {
    const { report, pass, taken } = setup();
    pass(YOUTUBE_POLL_MS * 4);
    expect(taken()).toEqual([]);
    report(YT_STATE.PLAYING);
    taken();
    pass(YOUTUBE_POLL_MS * 4);
    expect(taken()).toEqual(['timeupdate', 'timeupdate', 'timeupdate', 'timeupdate']);
    report(YT_STATE.PAUSED);
    taken();
    pass(YOUTUBE_POLL_MS * 4);
    expect(taken()).toEqual([]);
  });

  it("tells a seek made with YouTube's own controls from time passing, playing at any rate and paused", () => {
    const { player, report, pass, taken } = setup();
    report(YT_STATE.PLAYING);
    player.rate = 2;
    pass(YOUTUBE_POLL_MS * 8);
    expect(taken().filter((event) => event !== 'timeupdate')).toEqual(['play']);

    player.time += 30;
    pass(YOUTUBE_POLL_MS);
    expect(taken()).toEqual(['timeupdate', 'seeked']);
    player.time -= 10;
    pass(YOUTUBE_POLL_MS);
    expect(taken()).toEqual(['timeupdate', 'seeked']);

    // Sought while playing: YouTube buffers there first; 'seeked' once it plays again, as a <video>'s.
    player.time = 200;
    report(YT_STATE.BUFFERING);
    pass(YOUTUBE_POLL_MS * 2);
    expect(taken()).toEqual([]);
    report(YT_STATE.PLAYING);
    expect(taken()).toEqual(['seeked']);

    report(YT_STATE.PAUSED);
    pass(YOUTUBE_POLL_MS * 2);
    expect(taken()).toEqual(['pause']);
    player.time = 3;
    pass(YOUTUBE_POLL_MS);
    expect(taken()).toEqual(['seeked']);
  });

  it('answers null for a colour: the iframe of another origin cannot be read', () => {
    expect(setup().adapter.colorAt()).toBeNull();
  });
});

describe('YouTubeAdapter: commands', () => {
  it("seeks with seekTo, answers the target until the player has it, and says 'seeked' once it has landed", () => {
    const { adapter, player, report, pass, taken } = setup();
    report(YT_STATE.PLAYING);
    pass(1000);
    taken();

    adapter.seek(42);
    expect(player.calls).toContain('seekTo 42 true');
    expect(adapter.currentTime()).toBe(42);
    // The player has not reported the new place yet (its answers come by postMessage), then buffers.
    pass(100);
    expect(adapter.currentTime()).toBeCloseTo(42.1, 1);
    player.time = 42;
    report(YT_STATE.BUFFERING);
    pass(200);
    expect(taken().filter((event) => event !== 'timeupdate')).toEqual([]);
    expect(adapter.currentTime()).toBe(42);
    report(YT_STATE.PLAYING);
    expect(taken()).toEqual(['seeked']);
    pass(YOUTUBE_POLL_MS * 4);
    expect(taken().filter((event) => event !== 'timeupdate')).toEqual([]);
    expect(adapter.currentTime()).toBeCloseTo(43, 1);
  });

  it('takes a seek that never lands as done after a while, and answers the real position again', () => {
    const { adapter, player, pass, taken } = setup(YT_STATE.PAUSED);
    adapter.seek(5000);
    pass(YOUTUBE_SEEK_SETTLE_MS - 100);
    expect(taken()).toEqual([]);
    expect(adapter.currentTime()).toBe(5000);
    player.time = 600; // the end: YouTube kept the seek within the video
    pass(200);
    expect(taken()).toEqual(['seeked']);
    expect(adapter.currentTime()).toBe(600);
  });

  it('keeps a cued video paused when it is sought (YouTube would start it), disbelieving its PLAYING', async () => {
    const { adapter, player, report, pass, taken } = setup(YT_STATE.CUED);
    adapter.seek(10);
    await Promise.resolve();
    expect(player.calls).toEqual(['seekTo 10 true', 'pauseVideo']);
    player.time = 10;
    report(YT_STATE.BUFFERING);
    report(YT_STATE.PLAYING);
    expect(adapter.paused()).toBe(true);
    report(YT_STATE.PAUSED);
    pass(YOUTUBE_POLL_MS);
    expect(taken()).toEqual(['seeked']);
    expect(adapter.paused()).toBe(true);
  });

  it('lets a cued video start when play() follows the seek at once (a follower joining playback)', async () => {
    const { adapter, player, report, pass, taken } = setup(YT_STATE.CUED);
    adapter.seek(10);
    const played = adapter.play();
    await Promise.resolve();
    expect(player.calls).toEqual(['seekTo 10 true', 'playVideo']);
    player.time = 10;
    report(YT_STATE.UNSTARTED);
    report(YT_STATE.BUFFERING);
    expect(adapter.currentTime()).toBe(10);
    pass(200);
    expect(taken()).toEqual(['play']);
    report(YT_STATE.PLAYING);
    await played;
    expect(taken()).toEqual(['seeked']);
  });

  it("plays: paused() is false at once, 'play' comes once, and the promise resolves once it plays", async () => {
    const { adapter, player, report, pass, taken } = setup();
    const played = vi.fn();
    void adapter.play().then(played);
    expect(player.calls).toEqual(['playVideo']);
    expect(adapter.paused()).toBe(false);
    pass(0);
    expect(taken()).toEqual(['play']);
    report(YT_STATE.UNSTARTED); // a first play goes UNSTARTED, BUFFERING, PLAYING
    report(YT_STATE.BUFFERING);
    expect(adapter.paused()).toBe(false);
    report(YT_STATE.PLAYING);
    await vi.waitFor(() => expect(played).toHaveBeenCalled());
    expect(taken()).toEqual([]);
  });

  it('rejects play() with NotAllowedError when YouTube does not start (autoplay without a gesture)', async () => {
    const { adapter, report, pass, taken } = setup();
    const outcome = adapter.play().catch((error: unknown) => error);
    report(YT_STATE.UNSTARTED);
    report(YT_STATE.CUED);
    pass(YOUTUBE_PLAY_START_MS + YOUTUBE_POLL_MS);
    const error = await outcome;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('NotAllowedError');
    expect(adapter.paused()).toBe(true);
    expect(taken()).toEqual(['play', 'pause']);
  });

  it('waits as long as YouTube buffers a play(), without taking it for a refusal', () => {
    const { adapter, report, pass } = setup();
    const rejected = vi.fn();
    adapter.play().catch(rejected);
    report(YT_STATE.BUFFERING);
    pass(YOUTUBE_PLAY_START_MS * 3);
    expect(rejected).not.toHaveBeenCalled();
    expect(adapter.paused()).toBe(false);
  });

  it('rejects a pending play() with AbortError when pause() comes first, and believes no stale PLAYING', async () => {
    const { adapter, player, report, pass, taken } = setup();
    const outcome = adapter.play().catch((error: unknown) => error);
    adapter.pause();
    expect(((await outcome) as DOMException).name).toBe('AbortError');
    expect(player.calls).toEqual(['playVideo', 'pauseVideo']);
    report(YT_STATE.PLAYING); // sent before the pause reached the player
    expect(adapter.paused()).toBe(true);
    report(YT_STATE.PAUSED);
    pass(YOUTUBE_POLL_MS * 8);
    expect(adapter.paused()).toBe(true);
    // As a <video> told play() then pause(): both events, then nothing more.
    expect(taken()).toEqual(['play', 'pause']);
  });

  it('sets the rate within proto bounds and lets YouTube say which it took', () => {
    const { adapter, player } = setup();
    adapter.setPlaybackRate(1.05);
    adapter.setPlaybackRate(10);
    adapter.setPlaybackRate(Number.NaN);
    expect(player.calls).toEqual(['setPlaybackRate 1.05', 'setPlaybackRate 4']);
  });

  it('mutes and unmutes, answering the wish until YouTube reports it', () => {
    const { adapter, player } = setup();
    adapter.setMuted(true);
    expect(player.calls).toEqual(['mute']);
    expect(adapter.muted()).toBe(true);
    player.isMutedNow = true;
    expect(adapter.muted()).toBe(true);
    adapter.setMuted(false);
    expect(adapter.muted()).toBe(false);
    expect(player.calls).toEqual(['mute', 'unMute']);
  });

  it('stops listening: an unsubscribed listener hears nothing', () => {
    const { adapter, report } = setup();
    const heard = vi.fn();
    const off = adapter.on('play', heard);
    off();
    report(YT_STATE.PLAYING);
    expect(heard).not.toHaveBeenCalled();
  });

  it('destroys the YouTube player, stops its poll and rejects a pending play()', async () => {
    const { adapter, player, report, pass, taken, onDestroy } = setup();
    const outcome = adapter.play().catch((error: unknown) => error);
    report(YT_STATE.BUFFERING);
    adapter.destroy();
    adapter.destroy();
    expect(((await outcome) as DOMException).name).toBe('AbortError');
    expect(player.calls.filter((call) => call === 'destroy')).toHaveLength(1);
    expect(onDestroy).toHaveBeenCalledTimes(1);
    taken();
    report(YT_STATE.PLAYING);
    pass(YOUTUBE_POLL_MS * 4);
    expect(taken()).toEqual([]);
  });
});
