/** The sound gate's tone: a 440 Hz sine for about a second, faded in and out so it does not click. */
export const TEST_TONE = { hz: 440, seconds: 1, fadeSeconds: 0.05, gain: 0.25 } as const;

type AudioContextClass = typeof AudioContext;

/** The browser's AudioContext (Safari before 14.1 names it webkitAudioContext), or null without one. */
function audioContextClass(): AudioContextClass | null {
  const scope = globalThis as typeof globalThis & { webkitAudioContext?: AudioContextClass };
  return scope.AudioContext ?? scope.webkitAudioContext ?? null;
}

export const canPlayTestTone = (): boolean => audioContextClass() !== null;

/**
 * Plays the tone with the Web Audio API (an OscillatorNode: no audio file). Call it from a click:
 * the context is created and resumed inside the gesture, which is what lets the page make sound.
 * Resolves when the tone has ended (the context closed); rejects when the browser refuses.
 */
export function playTestTone(): Promise<void> {
  const Context = audioContextClass();
  if (!Context) return Promise.reject(new Error('no Web Audio'));
  const context = new Context();
  const resumed = context.resume();
  const start = context.currentTime;
  const end = start + TEST_TONE.seconds;
  const oscillator = context.createOscillator();
  oscillator.type = 'sine';
  oscillator.frequency.value = TEST_TONE.hz;
  const gain = context.createGain();
  gain.gain.setValueAtTime(0, start);
  gain.gain.linearRampToValueAtTime(TEST_TONE.gain, start + TEST_TONE.fadeSeconds);
  gain.gain.setValueAtTime(TEST_TONE.gain, end - TEST_TONE.fadeSeconds);
  gain.gain.linearRampToValueAtTime(0, end);
  oscillator.connect(gain).connect(context.destination);
  const ended = new Promise<void>((resolve) => {
    oscillator.onended = () => resolve();
  });
  oscillator.start(start);
  oscillator.stop(end);
  // A context that never runs (no audio output, or not allowed to start) ends no tone: the
  // question is asked all the same.
  const late = new Promise<void>((resolve) => setTimeout(resolve, TEST_TONE.seconds * 1000 + 1500));
  return Promise.race([resumed.then(() => ended), late]).finally(() => {
    oscillator.disconnect();
    gain.disconnect();
    void context.close().catch(() => undefined);
  });
}
