import type { ClientExposureEvent } from '@uis/proto';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePlayer, type FakePlayerOptions } from '../../../playback/testing/fakes';
import { fakeLiveConnection } from '../../../testing/fake-live-connection';
import { saveSoundChoice } from '../lib/sound-choice';
import { ExposureScope } from './exposure-scope';
import { PlayerStage } from './player-stage';
import { LIVE_CONTROL_TEXTS, SOUND_GATE_TEXTS } from '../../../i18n/en/live-session';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const notAllowed = () => Object.assign(new Error('play() needs a gesture'), { name: 'NotAllowedError' });

/** The stage as the live page mounts it, with a fake player whose making is counted. */
function renderStage(role: 'owner' | 'participant', options: FakePlayerOptions = {}) {
  const live = fakeLiveConnection();
  const player = new FakePlayer(options);
  player.isMuted = true; // as the live page makes a participant's player
  const make = vi.fn(() => Promise.resolve(player));
  const view = render(
    <ExposureScope connection={live.connection} sessionId={sessionId} enabled={role === 'participant'}>
      <PlayerStage
        sessionId={sessionId}
        kind="video"
        make={make}
        role={role}
        connection={live.connection}
        allowClicks={false}
        userName="Pat"
        prompts={undefined}
      />
    </ExposureScope>,
  );
  /** The exposure events the page sent (on leaving, at the latest). */
  const exposureSent = async () => {
    view.unmount();
    await waitFor(() => expect(live.asks('exposure').length).toBeGreaterThan(0));
    return live
      .asks('exposure')
      .flatMap((payload) => (payload as { events: ClientExposureEvent[] }).events)
      .map((event) => event.kind);
  };
  return { live, player, make, exposureSent };
}

function stubAudio() {
  class FakeContext {
    currentTime = 0;
    destination = {};
    resume = () => Promise.resolve();
    close = () => Promise.resolve();
    createOscillator() {
      const node = {
        frequency: { value: 0 },
        onended: null as null | (() => void),
        connect: (next: unknown) => next,
        disconnect: () => undefined,
        start: () => undefined,
        stop: () => queueMicrotask(() => node.onended?.()),
      };
      return node;
    }
    createGain() {
      const param = { setValueAtTime: () => undefined, linearRampToValueAtTime: () => undefined };
      return { gain: param, connect: (next: unknown) => next, disconnect: () => undefined };
    }
  }
  vi.stubGlobal('AudioContext', FakeContext);
}

const setGesture = (hasBeenActive: boolean | undefined) =>
  Object.defineProperty(navigator, 'userActivation', {
    value: hasBeenActive === undefined ? undefined : { hasBeenActive },
    configurable: true,
  });

describe('the live player’s sound', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => setGesture(undefined));

  it('puts the sound gate before a participant’s player, which then plays with sound', async () => {
    stubAudio();
    const { make, player, exposureSent } = renderStage('participant');
    expect(screen.getByTestId('sound-gate')).toBeTruthy();
    expect(make).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: SOUND_GATE_TEXTS.playTone }));
    fireEvent.click(await screen.findByRole('button', { name: SOUND_GATE_TEXTS.heard }));
    await waitFor(() => expect(make).toHaveBeenCalledTimes(1));
    await screen.findByRole('button', { name: LIVE_CONTROL_TEXTS.muteVideo });
    expect(player.muted()).toBe(false);
    expect(screen.queryByTestId('sound-gate')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: LIVE_CONTROL_TEXTS.muteVideo }));
    expect(player.muted()).toBe(true);
    expect(await exposureSent()).toEqual(['unmute', 'mute']);
  });

  it('after a reload, starts muted (no gesture yet) and one click resumes with sound', async () => {
    saveSoundChoice(sessionId, 'sound');
    setGesture(false);
    const { make, player, exposureSent } = renderStage('participant');
    const resume = await screen.findByRole('button', { name: new RegExp(SOUND_GATE_TEXTS.resumeWithSound) });
    expect(make).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('sound-gate')).toBeNull();
    expect(player.muted()).toBe(true);

    fireEvent.click(resume);
    expect(player.muted()).toBe(false);
    expect(screen.queryByRole('button', { name: new RegExp(SOUND_GATE_TEXTS.resumeWithSound) })).toBeNull();
    expect(await exposureSent()).toEqual(['mute', 'unmute']);
  });

  it('falls back to muted playback when the browser refuses sound after all, one click from sound', async () => {
    saveSoundChoice(sessionId, 'sound');
    const { live, player } = renderStage('participant', { playError: notAllowed() });
    await screen.findByRole('button', { name: LIVE_CONTROL_TEXTS.muteVideo });
    expect(player.muted()).toBe(false);
    // The researcher's video plays: the browser refuses it with sound, and then at all.
    live.serverSends('videoStatus', {
      sessionId,
      paused: false,
      currentTime: 2,
      playbackRate: 1,
      at: Date.now(),
    });
    const join = await screen.findByRole('button', { name: new RegExp(SOUND_GATE_TEXTS.resumeWithSound) });
    expect(player.muted()).toBe(true);
    expect(player.log.filter((call) => call === 'play').length).toBeGreaterThanOrEqual(2);

    player.options.playError = null;
    fireEvent.click(join);
    expect(player.muted()).toBe(false);
    await waitFor(() => expect(player.paused()).toBe(false));
  });

  it('keeps a participant who went on without sound muted, with the usual unmute button', async () => {
    saveSoundChoice(sessionId, 'muted');
    const { player } = renderStage('participant');
    await screen.findByRole('button', { name: LIVE_CONTROL_TEXTS.unmuteVideo });
    expect(player.muted()).toBe(true);
    expect(screen.queryByRole('button', { name: new RegExp(SOUND_GATE_TEXTS.resumeWithSound) })).toBeNull();
  });

  it('has no gate for the researcher, and records no exposure of theirs', async () => {
    const { make, live } = renderStage('owner');
    await waitFor(() => expect(make).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('sound-gate')).toBeNull();
    expect(live.asks('exposure')).toEqual([]);
  });
});
