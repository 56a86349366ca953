import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../../components/ui/icon';
import { canPlayTestTone, playTestTone } from '../../../playback/sound/test-tone';
import { saveSoundChoice, type SoundChoice } from '../lib/sound-choice';
import { SOUND_GATE_TEXTS as TEXTS } from '../../../i18n/en/live-session';

type Step = 'start' | 'playing' | 'asking' | 'not-heard';

/** What the live region says at each step (announced as it changes). */
const statusOf = (step: Step, noAudio: boolean): string =>
  step === 'playing'
    ? TEXTS.playing
    : step === 'asking'
      ? TEXTS.question
      : step === 'not-heard' && !noAudio
        ? TEXTS.hint
        : '';

/**
 * A participant's sound check before a video or stream session plays: their click turns sound on
 * (the gesture browsers ask before a page may make sound) and plays a short tone; they say whether
 * they heard it. Heard: the video plays with sound. Not heard: a hint, the tone again, or on without
 * sound (the researcher's monitor and the exposure log show it). The choice is kept for the tab.
 */
export function SoundGate({
  sessionId,
  onPassed,
}: {
  sessionId: string;
  onPassed: (choice: SoundChoice) => void;
}) {
  const [step, setStep] = useState<Step>('start');
  const [noAudio, setNoAudio] = useState(() => !canPlayTestTone());
  const heardRef = useRef<HTMLButtonElement>(null);
  const againRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Focus follows the question, so a keyboard or screen-reader user lands on the next choice.
  useEffect(() => {
    if (step === 'asking') heardRef.current?.focus();
    if (step === 'not-heard') againRef.current?.focus();
  }, [step]);

  const play = () => {
    if (step === 'playing') return;
    setStep('playing');
    // Inside the click: the tone's context starts in the gesture.
    playTestTone().then(
      () => mounted.current && setStep('asking'),
      () => {
        if (!mounted.current) return;
        setNoAudio(true);
        setStep('not-heard');
      },
    );
  };
  const pass = (choice: SoundChoice) => {
    saveSoundChoice(sessionId, choice);
    onPassed(choice);
  };

  const asked = step === 'asking' || step === 'not-heard';
  return (
    <section className="sound-gate" aria-labelledby={titleId} data-testid="sound-gate">
      <Icon name="volume_up" size={40} />
      <h2 id={titleId}>{TEXTS.title}</h2>
      <p>{noAudio ? TEXTS.noAudio : TEXTS.intro}</p>
      <p className="sound-gate-status" role="status">
        {statusOf(step, noAudio)}
      </p>
      {step === 'asking' ? (
        <div className="sound-gate-actions">
          <button ref={heardRef} type="button" className="button" onClick={() => pass('sound')}>
            {TEXTS.heard}
          </button>
          <button type="button" className="button secondary" onClick={() => setStep('not-heard')}>
            {TEXTS.notHeard}
          </button>
        </div>
      ) : null}
      <div className="sound-gate-actions">
        {noAudio ? null : (
          <button
            ref={againRef}
            type="button"
            className={asked ? 'button secondary' : 'button'}
            aria-disabled={step === 'playing'}
            onClick={play}
          >
            <Icon name="volume_up" /> {step === 'start' ? TEXTS.playTone : TEXTS.playAgain}
          </button>
        )}
        {step === 'not-heard' || noAudio ? (
          <button type="button" className="button secondary" onClick={() => pass('muted')}>
            <Icon name="volume_off" /> {TEXTS.continueMuted}
          </button>
        ) : null}
      </div>
    </section>
  );
}
