import { fireEvent, render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readSoundChoice } from '../lib/sound-choice';
import { SoundGate } from './sound-gate';
import { SOUND_GATE_TEXTS as TEXTS } from '../../../i18n/en/live-session';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';

/** A Web Audio stand-in that records the tone it is asked for and ends it at once. */
function stubAudio() {
  const tones: { type: string; hz: number; started: number; stopped: number }[] = [];
  class FakeContext {
    currentTime = 0;
    destination = {};
    resume = vi.fn(() => Promise.resolve());
    close = vi.fn(() => Promise.resolve());
    createOscillator() {
      const tone = { type: '', hz: 0, started: -1, stopped: -1 };
      tones.push(tone);
      const node = {
        type: '',
        frequency: { value: 0 },
        onended: null as null | (() => void),
        connect: (next: unknown) => next,
        disconnect: vi.fn(),
        start: (at: number) => (tone.started = at),
        stop: (at: number) => {
          tone.stopped = at;
          tone.type = node.type;
          tone.hz = node.frequency.value;
          queueMicrotask(() => node.onended?.());
        },
      };
      return node;
    }
    createGain() {
      const param = { setValueAtTime: vi.fn(), linearRampToValueAtTime: vi.fn() };
      return { gain: param, connect: (next: unknown) => next, disconnect: vi.fn() };
    }
  }
  vi.stubGlobal('AudioContext', FakeContext);
  return tones;
}

async function expectNoAxeViolations(container: HTMLElement) {
  // Colour contrast needs layout jsdom does not do; the browser suite checks it.
  const { violations } = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

/** axe walks the whole tree in jsdom: seconds on a busy machine. */
const AXE_TEST_MS = 20_000;

describe('the sound gate', () => {
  beforeEach(() => sessionStorage.clear());

  it(
    'plays a one-second tone from the click, asks, and passes with sound once heard (kept for the tab)',
    async () => {
      const tones = stubAudio();
      const passed = vi.fn();
      const { container } = render(<SoundGate sessionId={sessionId} onPassed={passed} />);
      expect(screen.getByRole('region', { name: TEXTS.title })).toBeTruthy();
      await expectNoAxeViolations(container);

      fireEvent.click(screen.getByRole('button', { name: TEXTS.playTone }));
      expect(tones).toEqual([{ type: 'sine', hz: 440, started: 0, stopped: 1 }]);
      const heard = await screen.findByRole('button', { name: TEXTS.heard });
      expect(screen.getByRole('status').textContent).toBe(TEXTS.question);
      // Focus moves to the answer, for keyboard and screen-reader users.
      expect(document.activeElement).toBe(heard);
      await expectNoAxeViolations(container);

      fireEvent.click(heard);
      expect(passed).toHaveBeenCalledWith('sound');
      expect(readSoundChoice(sessionId)).toBe('sound');
    },
    AXE_TEST_MS,
  );

  it(
    'gives a hint when nothing was heard, plays the tone again, or goes on without sound',
    async () => {
      const tones = stubAudio();
      const passed = vi.fn();
      const { container } = render(<SoundGate sessionId={sessionId} onPassed={passed} />);
      fireEvent.click(screen.getByRole('button', { name: TEXTS.playTone }));
      fireEvent.click(await screen.findByRole('button', { name: TEXTS.notHeard }));
      expect(screen.getByRole('status').textContent).toBe(TEXTS.hint);
      const again = screen.getByRole('button', { name: TEXTS.playAgain });
      expect(document.activeElement).toBe(again);
      expect(passed).not.toHaveBeenCalled();
      await expectNoAxeViolations(container);

      fireEvent.click(again);
      expect(tones).toHaveLength(2);
      await screen.findByRole('button', { name: TEXTS.heard });
      fireEvent.click(screen.getByRole('button', { name: TEXTS.notHeard }));
      fireEvent.click(screen.getByRole('button', { name: TEXTS.continueMuted }));
      expect(passed).toHaveBeenCalledWith('muted');
      expect(readSoundChoice(sessionId)).toBe('muted');
    },
    AXE_TEST_MS,
  );

  it('lets a browser without Web Audio go on without sound', () => {
    vi.stubGlobal('AudioContext', undefined);
    const passed = vi.fn();
    render(<SoundGate sessionId={sessionId} onPassed={passed} />);
    expect(screen.getByText(TEXTS.noAudio)).toBeTruthy();
    expect(screen.queryByRole('button', { name: TEXTS.playTone })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: TEXTS.continueMuted }));
    expect(passed).toHaveBeenCalledWith('muted');
  });
});
