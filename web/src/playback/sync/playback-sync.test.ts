import {
  IGNORE_DRIFT_MS,
  NUDGE_RATE,
  SEEK_DRIFT_MS,
  STATUS,
  VIDEO_STATUS_EVERY_MS,
} from '@uis/proto/browser';
import type { StampedVideoStatus } from '@uis/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CATCH_UP_MS,
  CLOSE_ENOUGH_MS,
  CORRECT_EVERY_MS,
  MAX_RESEEKS,
  MISSED_SEEK_MS,
  PlaybackSync,
  RESTORE_WAIT_MS,
  START_AHEAD_MS,
  positionAt,
  syncStep,
} from './playback-sync';
import { FakeLink, FakePlayer, type FakePlayerOptions } from '../testing/fakes';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

const status = (change: Partial<StampedVideoStatus>): StampedVideoStatus => ({
  sessionId,
  paused: false,
  currentTime: 0,
  playbackRate: 1,
  at: Date.now(),
  ...change,
});

function owner(options: FakePlayerOptions = {}) {
  const player = new FakePlayer(options);
  const link = new FakeLink();
  const sync = new PlaybackSync({ player, link, sessionId, role: 'owner' });
  return { player, link, sync };
}

function participant(options: FakePlayerOptions = {}) {
  const player = new FakePlayer(options);
  const link = new FakeLink();
  const blocked: boolean[] = [];
  const sync = new PlaybackSync({
    player,
    link,
    sessionId,
    role: 'participant',
    onBlockedChange: (value) => blocked.push(value),
  });
  /** This player's position minus where `sent` says the researcher is now, in ms (positive: ahead). */
  const driftFrom = (sent: StampedVideoStatus) =>
    (player.currentTime() - positionAt(sent, link.clock.now())) * 1000;
  return { player, link, sync, blocked, driftFrom };
}

/** A researcher and a participant on one fake server that relays statuses `latencyMs` late. */
function room(latencyMs: number, participantOptions: FakePlayerOptions = {}) {
  const lead = owner({ seekMs: 30, startMs: 20 });
  const follower = participant(participantOptions);
  lead.link.answers.videoStatus = (payload) => {
    setTimeout(() => follower.link.emit('videoStatus', payload), latencyMs);
    return { status: STATUS.SUCCESS, res: null };
  };
  lead.sync.start();
  follower.sync.start();
  /** Participant minus researcher, in ms. */
  const drift = () => (follower.player.currentTime() - lead.player.currentTime()) * 1000;
  return { lead, follower, drift };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('positionAt', () => {
  it('is the status position when paused, and moves on at the rate since `at` when playing', () => {
    const at = 1_000_000;
    expect(positionAt(status({ paused: true, currentTime: 12, at }), at + 5000)).toBe(12);
    expect(positionAt(status({ currentTime: 12, at }), at + 500)).toBeCloseTo(12.5, 9);
    expect(positionAt(status({ currentTime: 12, playbackRate: 2, at }), at + 500)).toBeCloseTo(13, 9);
  });
});

describe('syncStep', () => {
  it(`ignores drift under ${IGNORE_DRIFT_MS} ms and seeks at ${SEEK_DRIFT_MS} ms or more`, () => {
    expect(syncStep(IGNORE_DRIFT_MS - 1, 1, false)).toEqual({ kind: 'rate', rate: 1, nudging: false });
    expect(syncStep(-(IGNORE_DRIFT_MS - 1), 1.5, false)).toEqual({ kind: 'rate', rate: 1.5, nudging: false });
    expect(syncStep(SEEK_DRIFT_MS, 1, false)).toEqual({ kind: 'seek' });
    expect(syncStep(-SEEK_DRIFT_MS - 500, 1, true)).toEqual({ kind: 'seek' });
  });

  it('nudges the rate in proportion to the drift, never more than NUDGE_RATE, around the researcher rate', () => {
    const behind = syncStep(-50, 1, false);
    expect(behind).toEqual({ kind: 'rate', rate: 1 + 50 / CATCH_UP_MS, nudging: true });
    const ahead = syncStep(200, 2, false);
    expect(ahead).toEqual({ kind: 'rate', rate: 2 * (1 - NUDGE_RATE), nudging: true });
    const far = syncStep(-900, 1, false);
    expect(far).toEqual({ kind: 'rate', rate: 1 + NUDGE_RATE, nudging: true });
  });

  it('keeps nudging down to CLOSE_ENOUGH_MS, then goes back to the researcher rate', () => {
    expect(syncStep(IGNORE_DRIFT_MS - 5, 1, true)).toMatchObject({ nudging: true });
    expect(syncStep(CLOSE_ENOUGH_MS - 1, 1, true)).toEqual({ kind: 'rate', rate: 1, nudging: false });
  });
});

describe('PlaybackSync, researcher', () => {
  it('sends its status stamped with the server clock on play, pause, seeked and rate changes', async () => {
    const { player, link, sync } = owner();
    link.offset = 250; // the server's clock is 250 ms ahead of this browser's
    sync.start();
    link.sent.length = 0;

    await player.play();
    expect(link.statuses().at(-1)).toEqual({
      sessionId,
      paused: false,
      currentTime: 0,
      playbackRate: 1,
      at: Date.now() + 250,
    });
    await wait(1000);
    player.pause();
    expect(link.statuses().at(-1)).toMatchObject({ paused: true, currentTime: 1 });
    player.seek(7);
    await wait(0);
    expect(link.statuses().at(-1)).toMatchObject({ paused: true, currentTime: 7 });
    player.setPlaybackRate(1.5);
    expect(link.statuses().at(-1)).toMatchObject({ playbackRate: 1.5 });
    sync.stop();
  });

  it(`sends it at least every ${VIDEO_STATUS_EVERY_MS} ms while playing, and not while paused`, async () => {
    const { player, link, sync } = owner();
    sync.start();
    await wait(VIDEO_STATUS_EVERY_MS * 3);
    expect(link.statuses()).toHaveLength(0);
    await player.play();
    await wait(VIDEO_STATUS_EVERY_MS * 5);
    const stamps = link.statuses().map((sent) => sent.at);
    expect(stamps.length).toBeGreaterThanOrEqual(5);
    const gaps = stamps.slice(1).map((at, i) => at - (stamps[i] ?? 0));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(VIDEO_STATUS_EVERY_MS);
    // No more than that either: a playing video that keeps time needs no more.
    expect(stamps.length).toBeLessThanOrEqual(2 + 5);
    player.pause();
    const count = link.statuses().length;
    await wait(VIDEO_STATUS_EVERY_MS * 3);
    expect(link.statuses()).toHaveLength(count);
    sync.stop();
  });

  it('sends at once when its video departs from its last status (a stall)', async () => {
    const { player, link, sync } = owner();
    sync.start();
    await player.play();
    await wait(1000);
    const count = link.statuses().length;
    // The picture froze for 100 ms: it is 100 ms behind what participants assume.
    player.position -= 0.1;
    await wait(CORRECT_EVERY_MS);
    expect(link.statuses()).toHaveLength(count + 1);
    expect(link.statuses().at(-1)?.currentTime).toBeCloseTo(player.currentTime(), 2);
    await wait(CORRECT_EVERY_MS * 3);
    expect(link.statuses()).toHaveLength(count + 1);
    sync.stop();
  });

  it("answers the server's syncVideoStatus with where it is now, and sends nothing while disconnected", async () => {
    const { player, link, sync } = owner();
    sync.start();
    await player.play();
    await wait(3100);
    link.sent.length = 0;
    link.emit('syncVideoStatus', { sessionId });
    expect(link.statuses()).toEqual([expect.objectContaining({ paused: false, currentTime: 3.1 })]);

    link.setStatus('reconnecting');
    player.pause();
    await wait(VIDEO_STATUS_EVERY_MS);
    expect(link.statuses()).toHaveLength(1);
    // Back: the room hears what changed while it was away.
    link.setStatus('connected');
    expect(link.statuses().at(-1)).toMatchObject({ paused: true, currentTime: 3.1 });
    sync.stop();
  });

  it("continues from the room's last status after a reload, and follows nobody afterwards", async () => {
    const { player, link, sync } = owner();
    sync.start();
    expect(link.sentOf('syncVideoStatus')).toEqual([{ sessionId }]);
    link.emit('videoStatus', status({ currentTime: 42, at: Date.now() - 1000 }));
    await wait(0);
    expect(player.currentTime()).toBeCloseTo(43, 3);
    expect(player.paused()).toBe(false);
    // Another researcher tab's statuses reach this one too: they are not followed.
    link.emit('videoStatus', status({ currentTime: 5, paused: true }));
    await wait(500);
    expect(player.paused()).toBe(false);
    expect(player.currentTime()).toBeCloseTo(43.5, 3);
    sync.stop();
  });

  it('does not restore a status that comes after the wait, or after the researcher started', async () => {
    const late = owner();
    late.sync.start();
    await wait(RESTORE_WAIT_MS);
    late.link.emit('videoStatus', status({ currentTime: 42 }));
    expect(late.player.currentTime()).toBe(0);
    late.sync.stop();

    const busy = owner();
    busy.sync.start();
    await busy.player.play();
    busy.link.emit('videoStatus', status({ currentTime: 42 }));
    expect(busy.player.currentTime()).toBeLessThan(1);
    busy.sync.stop();
  });

  it('stops listening when stopped', () => {
    const { player, link, sync } = owner();
    sync.start();
    sync.stop();
    expect(player.listenerCount()).toBe(0);
    expect(link.handlerCount()).toBe(0);
  });
});

describe('PlaybackSync, participant', () => {
  it('asks for the status on joining and again after every reconnect', () => {
    const { link, sync } = participant();
    sync.start();
    expect(link.sentOf('syncVideoStatus')).toEqual([{ sessionId }]);
    link.setStatus('reconnecting');
    link.setStatus('connected');
    expect(link.sentOf('syncVideoStatus')).toHaveLength(2);
    sync.stop();
  });

  it('sends no status of its own whatever its player does', async () => {
    const { player, link, sync } = participant();
    sync.start();
    await player.play();
    player.seek(3);
    player.pause();
    await wait(VIDEO_STATUS_EVERY_MS * 2);
    expect(link.statuses()).toEqual([]);
    sync.stop();
  });

  it("seeks to a paused status and pauses there, on the researcher's very frame", async () => {
    const { player, link, sync } = participant({ seekMs: 50 });
    sync.start();
    await player.play();
    link.emit('videoStatus', status({ paused: true, currentTime: 12.5 }));
    await wait(100);
    expect(player.paused()).toBe(true);
    expect(player.currentTime()).toBe(12.5);
    // Even a difference too small to matter while playing is not left when paused.
    link.emit('videoStatus', status({ paused: true, currentTime: 12.52 }));
    await wait(100);
    expect(player.currentTime()).toBe(12.52);
    sync.stop();
  });

  it('starts at where the researcher is now: the time since `at` at the rate counts', async () => {
    const { player, link, sync, driftFrom } = participant();
    sync.start();
    // A status stamped 800 ms ago at double speed: the researcher is 1.6 s further on.
    const sent = status({ currentTime: 10, playbackRate: 2, at: link.clock.now() - 800 });
    link.emit('videoStatus', sent);
    // It lands START_AHEAD_MS (at the rate) ahead of 11.6, and starts when the researcher gets there.
    expect(player.log.find((entry) => entry.startsWith('seek'))).toBe(
      `seek ${(11.6 + (START_AHEAD_MS / 1000) * 2).toFixed(3)}`,
    );
    expect(player.playbackRate()).toBe(2);
    await wait(START_AHEAD_MS + 10);
    expect(player.paused()).toBe(false);
    expect(Math.abs(driftFrom(sent))).toBeLessThan(25);
    sync.stop();
  });

  it('nudges the rate to close a small drift instead of seeking, then returns to the researcher rate', async () => {
    const { player, link, sync } = participant();
    sync.start();
    link.emit('videoStatus', status({ currentTime: 20 }));
    await wait(0);
    // The participant's video hiccups 300 ms behind.
    player.position -= 0.3;
    const seeks = player.log.filter((entry) => entry.startsWith('seek')).length;
    const rates: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      await wait(250);
      rates.push(player.playbackRate());
    }
    expect(player.log.filter((entry) => entry.startsWith('seek'))).toHaveLength(seeks);
    expect(Math.max(...rates)).toBeCloseTo(1 + NUDGE_RATE, 6);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(1);
    expect(player.playbackRate()).toBe(1);
    const want = positionAt(status({ currentTime: 20, at: link.clock.now() - 10_000 }), link.clock.now());
    expect(Math.abs(player.currentTime() - want) * 1000).toBeLessThan(IGNORE_DRIFT_MS);
    sync.stop();
  });

  it('makes up a 200 ms stall (a slow laptop) within 2.5 s, without seeking', async () => {
    const { player, link, sync, driftFrom } = participant();
    sync.start();
    const sent = status({ currentTime: 20 });
    link.emit('videoStatus', sent);
    // Joined (a timed start) and playing in step.
    await wait(START_AHEAD_MS + 1000);
    expect(player.paused()).toBe(false);
    expect(Math.abs(driftFrom(sent))).toBeLessThan(IGNORE_DRIFT_MS);
    player.position -= 0.2;
    const seeks = player.log.filter((entry) => entry.startsWith('seek')).length;
    let backInMs = 0;
    while (Math.abs(driftFrom(sent)) >= IGNORE_DRIFT_MS && backInMs < 10_000) {
      await wait(50);
      backInMs += 50;
    }
    // Within 1.9 s here; a nudge of 5 % at most (CATCH_UP_MS 1000) took 3.5 s.
    expect(backInMs).toBeLessThanOrEqual(2500);
    expect(player.log.filter((entry) => entry.startsWith('seek'))).toHaveLength(seeks);
    sync.stop();
  });

  it('joins by landing a little ahead, paused, and starting when the researcher gets there', async () => {
    const { player, link, sync, driftFrom } = participant({ seekMs: 200 });
    sync.start();
    const sent = status({ currentTime: 5 });
    link.emit('videoStatus', sent);
    expect(player.log).toEqual([`seek ${(5 + START_AHEAD_MS / 1000).toFixed(3)}`]);
    await wait(START_AHEAD_MS - 10);
    expect(player.paused()).toBe(true);
    await wait(20);
    expect(player.log).toEqual(['seek 5.500', 'play']);
    expect(Math.abs(driftFrom(sent))).toBeLessThan(5);
    sync.stop();
  });

  it('learns what a start takes and starts that much earlier next time', async () => {
    const { link, sync, driftFrom } = participant({ startMs: 120 });
    sync.start();
    const first = status({ currentTime: 5 });
    link.emit('videoStatus', first);
    await wait(1000);
    // The first start began 120 ms late: behind by that, and nudged from there.
    expect(driftFrom(first)).toBeLessThan(-80);
    link.emit('videoStatus', status({ paused: true, currentTime: 10 }));
    await wait(500);
    const second = status({ currentTime: 20 });
    link.emit('videoStatus', second);
    await wait(1000);
    expect(Math.abs(driftFrom(second))).toBeLessThan(20);
    sync.stop();
  });

  it('seeks when a second or more off while playing, aiming ahead by what its seeks take', async () => {
    const { player, link, sync, driftFrom } = participant({ seekMs: 200 });
    sync.start();
    link.emit('videoStatus', status({ currentTime: 5 }));
    await wait(2000);
    // The researcher jumps: the seek aims 200 ms ahead and lands on time, playing on.
    const jumped = status({ currentTime: 30 });
    link.emit('videoStatus', jumped);
    expect(player.log.at(-1)).toBe('seek 30.200');
    await wait(250);
    expect(player.paused()).toBe(false);
    expect(Math.abs(driftFrom(jumped))).toBeLessThan(IGNORE_DRIFT_MS);
    sync.stop();
  });

  it(`waits, paused, for the researcher when a seek lands ${MISSED_SEEK_MS} ms or more ahead`, async () => {
    // The join's seek took 600 ms (the lead it learns); the next one takes none and lands 600 ms ahead.
    const { player, link, sync, driftFrom } = participant({ seekMs: 600 });
    sync.start();
    link.emit('videoStatus', status({ currentTime: 5 }));
    await wait(3000);
    player.options.seekMs = 0;
    const jumped = status({ currentTime: 30 });
    link.emit('videoStatus', jumped);
    await wait(0);
    expect(player.log.slice(-2)).toEqual(['seek 30.600', 'pause']);
    await wait(590);
    expect(player.paused()).toBe(true);
    await wait(20);
    expect(player.paused()).toBe(false);
    expect(Math.abs(driftFrom(jumped))).toBeLessThan(IGNORE_DRIFT_MS);
    sync.stop();
  });

  it(`seeks again, paused and further ahead, when a seek lands ${MISSED_SEEK_MS} ms or more behind`, async () => {
    // Started without a seek (both at 0): the first seek while playing knows no lead yet.
    const { player, link, sync, driftFrom } = participant({ seekMs: 400 });
    sync.start();
    link.emit('videoStatus', status({ currentTime: 0 }));
    await wait(2000);
    const jumped = status({ currentTime: 30 });
    link.emit('videoStatus', jumped);
    await wait(400);
    // It took 400 ms and landed that far behind, which the nudge would take 8 s to close: paused, again
    // from where the researcher is then (30.4), START_AHEAD_MS and the 400 ms it learnt further.
    expect(player.log.filter((entry) => entry !== 'play')).toEqual(['seek 30.000', 'pause', 'seek 31.300']);
    await wait(400 + START_AHEAD_MS + 10);
    expect(player.paused()).toBe(false);
    expect(Math.abs(driftFrom(jumped))).toBeLessThan(IGNORE_DRIFT_MS);
    sync.stop();
  });

  it(`leaves the rest to the nudge after ${MAX_RESEEKS} seeks in a row that landed behind`, async () => {
    const { player, link, sync } = participant();
    // Every seek takes 750 ms longer than the one before (750, 1500, 2250): each lands behind.
    const seek = player.seek.bind(player);
    player.seek = (seconds) => {
      player.options.seekMs = (player.options.seekMs ?? 0) + 750;
      seek(seconds);
    };
    sync.start();
    link.emit('videoStatus', status({ currentTime: 0 }));
    await wait(1000);
    link.emit('videoStatus', status({ currentTime: 30 }));
    await wait(750 + 1500 + 2250 + CORRECT_EVERY_MS + 10);
    // The last landed 875 ms behind: it plays, nudged.
    expect(player.log.filter((entry) => entry.startsWith('seek'))).toHaveLength(1 + MAX_RESEEKS);
    expect(player.paused()).toBe(false);
    expect(player.playbackRate()).toBeCloseTo(1 + NUDGE_RATE, 6);
    sync.stop();
  });

  it('does not start the video over when it ended with the researcher', async () => {
    const { player, link, sync } = participant({ duration: 10 });
    sync.start();
    link.emit('videoStatus', status({ currentTime: 9 }));
    await wait(2000);
    expect(player.currentTime()).toBe(10);
    expect(player.paused()).toBe(true);
    const plays = player.log.filter((entry) => entry === 'play').length;
    await wait(1000);
    expect(player.log.filter((entry) => entry === 'play')).toHaveLength(plays);
    sync.stop();
  });

  it("shows the browser's autoplay refusal instead of stalling, and plays on resume()", async () => {
    const blockedError = Object.assign(new Error('play() needs a gesture'), { name: 'NotAllowedError' });
    const { player, link, sync, blocked } = participant({ playError: blockedError });
    sync.start();
    const sent = status({ currentTime: 3 });
    link.emit('videoStatus', sent);
    await wait(START_AHEAD_MS + 10);
    expect(blocked).toEqual([true]);
    expect(sync.isBlocked).toBe(true);
    // It does not keep asking the browser meanwhile.
    await wait(2000);
    expect(player.log.filter((entry) => entry === 'play')).toHaveLength(1);

    player.options.playError = null; // the click gave the page a user gesture
    sync.resume();
    await wait(0);
    expect(blocked).toEqual([true, false]);
    expect(player.paused()).toBe(false);
    expect(player.currentTime()).toBeCloseTo(positionAt(sent, link.clock.now()), 1);
    sync.stop();
  });
});

describe('PlaybackSync, a researcher and a participant', () => {
  it('keeps the participant within 100 ms in steady playback, a slow decoder and late statuses included', async () => {
    const { lead, follower, drift } = room(120, { seekMs: 80, startMs: 60, speedError: -0.02 });
    follower.link.offset = 8; // clock sync is good, not perfect
    await lead.player.play();
    await wait(4000);
    const drifts: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      await wait(250);
      drifts.push(Math.abs(drift()));
    }
    expect(Math.max(...drifts)).toBeLessThan(100);
    lead.sync.stop();
    follower.sync.stop();
  });

  it('follows a pause, a seek while paused, and a seek while playing (within 250 ms in 2 s)', async () => {
    const { lead, follower, drift } = room(60, { seekMs: 150, startMs: 40 });
    await lead.player.play();
    await wait(3000);
    lead.player.pause();
    await wait(500);
    expect(follower.player.paused()).toBe(true);
    expect(Math.abs(drift())).toBeLessThan(IGNORE_DRIFT_MS);

    lead.player.seek(20);
    await wait(500);
    expect(follower.player.currentTime()).toBeCloseTo(20, 1);
    await lead.player.play();
    await wait(3000);

    lead.player.seek(8);
    await wait(2000);
    expect(Math.abs(drift())).toBeLessThan(250);
    await wait(3000);
    expect(Math.abs(drift())).toBeLessThan(100);
    lead.sync.stop();
    follower.sync.stop();
  });
});
