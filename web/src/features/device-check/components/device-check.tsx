import type { DeviceCheckItem } from '@uis/proto';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { call } from '../../../api/client';
import { Icon } from '../../../components/ui/icon';
import { liveSessionPath } from '../../../routes';
import { browserOf } from '../lib/browser-name';
import { allDone, fail, ITEM_LABELS, ITEMS, pass, type CheckState, type ItemState } from '../lib/check-items';
import { playTestTone } from '../lib/media-probes';
import { checkCamera, checkMicrophone, checkNetwork, type CheckRun } from '../lib/run-device-check';
import '../device-check.css';
import {
  DEVICE_CHECK_TEXTS,
  adviceText,
  checksFailedText,
  resultNotSavedText,
  CHECK_RESULT_TEXTS,
  CHECK_STATUS_TEXTS,
} from '../../../i18n/en/device-check';
import { COMMON_TEXTS } from '../../../i18n/en/common';

const INITIAL: CheckState = {
  camera: { status: 'checking' },
  microphone: { status: 'checking' },
  speakers: { status: 'waiting' },
  stun: { status: 'checking' },
  turn: { status: 'checking' },
  rtt: { status: 'checking' },
};

const STATUS_ICON = {
  checking: 'hourglass_empty',
  waiting: 'touch_app',
  pass: 'check_circle',
  fail: 'error',
};

type Saving = 'idle' | 'saving' | 'saved' | { error: string };

/**
 * Ours: the pre-session check. Starts on a click (browsers open the microphone's audio
 * graph only after one), runs the camera, microphone and network items at once, asks about the
 * speakers, and stores the outcome (never audio or video) with the caller's records of the session.
 */
export function DeviceCheck({ sessionId }: { sessionId: string }) {
  const [round, setRound] = useState(0);
  return round === 0 ? (
    <DeviceCheckIntro sessionId={sessionId} onStart={() => setRound(1)} />
  ) : (
    <DeviceCheckRound key={round} sessionId={sessionId} onAgain={() => setRound((n) => n + 1)} />
  );
}

function DeviceCheckIntro({ sessionId, onStart }: { sessionId: string; onStart: () => void }) {
  return (
    <main className="device-check">
      <h1>{COMMON_TEXTS.checkDevices}</h1>
      <p>{DEVICE_CHECK_TEXTS.intro}</p>
      <div className="device-check-actions">
        <button type="button" className="button" onClick={onStart}>
          {DEVICE_CHECK_TEXTS.start}
        </button>
        <Link to={liveSessionPath(sessionId)}>{DEVICE_CHECK_TEXTS.goToSession}</Link>
      </div>
    </main>
  );
}

function DeviceCheckRound({ sessionId, onAgain }: { sessionId: string; onAgain: () => void }) {
  const [state, setState] = useState<CheckState>(INITIAL);
  const [level, setLevel] = useState(0);
  const [tone, setTone] = useState<'idle' | 'playing' | 'played'>('idle');
  const [saving, setSaving] = useState<Saving>('idle');
  const video = useRef<HTMLVideoElement>(null);
  const audio = useRef<AudioContext | null>(null);
  const started = useRef(performance.now());

  useEffect(() => {
    const context = new AudioContext();
    audio.current = context;
    const run: CheckRun = {
      sessionId,
      video: video.current!,
      audio: context,
      report: (item, itemState) => setState((now) => ({ ...now, [item]: itemState })),
      onLevel: setLevel,
      cleanup: [],
    };
    void context.resume().catch(() => undefined);
    void checkCamera(run);
    void checkMicrophone(run);
    void checkNetwork(run);
    return () => {
      run.cleanup.forEach((stop) => stop());
      void context.close();
    };
  }, [sessionId]);

  const done = allDone(state);
  useEffect(() => {
    if (!done) return;
    console.info(`[device-check] all items done in ${Math.round(performance.now() - started.current)} ms`);
    const outcomes = Object.fromEntries(ITEMS.map((item) => [item, state[item].status])) as Record<
      DeviceCheckItem,
      'pass' | 'fail'
    >;
    const browser = browserOf(navigator.userAgent);
    const rtt = state.rtt;
    setSaving('saving');
    call('saveDeviceCheck', {
      sessionId,
      browserName: browser.name,
      browserVersion: browser.version,
      ...outcomes,
      rttMs: 'rttMs' in rtt && rtt.rttMs !== undefined ? rtt.rttMs : null,
    }).then(
      () => setSaving('saved'),
      (error: unknown) => setSaving({ error: error instanceof Error ? error.message : String(error) }),
    );
    // Saved once per round, when the last item is settled.
  }, [done]);

  const playTone = async () => {
    if (!audio.current) return;
    setTone('playing');
    await audio.current.resume();
    await playTestTone(audio.current);
    setTone('played');
  };
  const answerSpeakers = (heard: boolean) =>
    setState((now) => ({
      ...now,
      speakers: heard
        ? pass(CHECK_RESULT_TEXTS.speakersWork)
        : fail(CHECK_RESULT_TEXTS.soundNotHeard, CHECK_RESULT_TEXTS.soundNotHeardAdvice),
    }));

  const extra: Partial<Record<DeviceCheckItem, React.ReactNode>> = {
    camera: (
      <video
        ref={video}
        className="device-check-preview"
        muted
        playsInline
        aria-label={DEVICE_CHECK_TEXTS.yourCamera}
      />
    ),
    microphone: (
      <label className="device-check-meter">
        {DEVICE_CHECK_TEXTS.microphoneLevel}
        <meter min={0} max={0.3} value={Math.min(level, 0.3)} />
      </label>
    ),
    speakers:
      state.speakers.status === 'waiting' ? (
        <div className="device-check-speakers">
          <button
            type="button"
            className="button secondary"
            disabled={tone === 'playing'}
            onClick={() => void playTone()}
          >
            <Icon name="volume_up" />{' '}
            {tone === 'idle' ? DEVICE_CHECK_TEXTS.playTestSound : DEVICE_CHECK_TEXTS.playAgain}
          </button>
          {tone === 'played' && (
            <fieldset className="device-check-heard">
              <legend>{DEVICE_CHECK_TEXTS.heardIt}</legend>
              <button type="button" className="button" onClick={() => answerSpeakers(true)}>
                {DEVICE_CHECK_TEXTS.yes}
              </button>
              <button type="button" className="button secondary" onClick={() => answerSpeakers(false)}>
                {DEVICE_CHECK_TEXTS.no}
              </button>
            </fieldset>
          )}
        </div>
      ) : null,
  };

  const failed = ITEMS.filter((item) => state[item].status === 'fail');
  return (
    <main className="device-check">
      <h1>{COMMON_TEXTS.checkDevices}</h1>
      <ol className="device-check-items" aria-label={DEVICE_CHECK_TEXTS.checks}>
        {ITEMS.map((item) => (
          <CheckRow key={item} item={item} state={state[item]}>
            {extra[item]}
          </CheckRow>
        ))}
      </ol>
      <div className="device-check-summary" role="status">
        {done &&
          (failed.length === 0
            ? DEVICE_CHECK_TEXTS.allPassed
            : checksFailedText(failed.length, ITEMS.length))}{' '}
        {saving === 'saving' && DEVICE_CHECK_TEXTS.saving}
        {saving === 'saved' && DEVICE_CHECK_TEXTS.saved}
        {typeof saving === 'object' && resultNotSavedText(saving.error)}
      </div>
      <div className="device-check-actions">
        <button type="button" className="button secondary" disabled={!done} onClick={onAgain}>
          {DEVICE_CHECK_TEXTS.checkAgain}
        </button>
        <Link to={liveSessionPath(sessionId)}>{DEVICE_CHECK_TEXTS.goToSession}</Link>
      </div>
    </main>
  );
}

function CheckRow({
  item,
  state,
  children,
}: {
  item: DeviceCheckItem;
  state: ItemState;
  children?: React.ReactNode;
}) {
  return (
    <li className={`device-check-item ${state.status}`} data-item={item} aria-label={ITEM_LABELS[item]}>
      <div className="device-check-head">
        <h2>{ITEM_LABELS[item]}</h2>
        <span className="device-check-status">
          <Icon name={STATUS_ICON[state.status]} /> {CHECK_STATUS_TEXTS[state.status]}
        </span>
      </div>
      {'message' in state && <p className="device-check-message">{state.message}</p>}
      {'advice' in state && state.advice && <p className="device-check-advice">{adviceText(state.advice)}</p>}
      {children}
    </li>
  );
}
