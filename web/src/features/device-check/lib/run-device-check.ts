import type { CallSettings, DeviceCheckItem } from '@uis/proto';
import { call } from '../../../api/client';
import { fail, mediaFailure, pass, RTT_LIMIT_MS, type ItemState } from './check-items';
import { HEARD_LEVEL, MICROPHONE_WITHIN_MS, firstFrame, levelOf } from './media-probes';
import { gatherCandidateTypes, roundTripMs, stunServers, turnServers } from './network-probes';
import {
  CHECK_RESULT_TEXTS as TEXTS,
  serverAnswersText,
  serverDownText,
  serverSlowText,
} from '../../../i18n/en/device-check';

/** What the automatic items need of the page, and how they report. */
export interface CheckRun {
  sessionId: string;
  video: HTMLVideoElement;
  audio: AudioContext;
  report(item: DeviceCheckItem, state: ItemState): void;
  /** The microphone's level (0 to 1), about every frame while the page is open. */
  onLevel(level: number): void;
  /** Tracks and timers to stop when the page closes. */
  cleanup: (() => void)[];
}

export async function checkCamera(run: CheckRun): Promise<void> {
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ video: true });
    run.cleanup.push(() => stream.getTracks().forEach((track) => track.stop()));
    run.video.srcObject = stream;
    void run.video.play().catch(() => undefined);
    run.report(
      'camera',
      (await firstFrame(run.video)) ? pass(TEXTS.cameraWorks) : fail(TEXTS.noPicture, TEXTS.noPictureAdvice),
    );
  } catch (error) {
    run.report('camera', mediaFailure('camera', error));
  }
}

export async function checkMicrophone(run: CheckRun): Promise<void> {
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    run.cleanup.push(() => stream.getTracks().forEach((track) => track.stop()));
    const analyser = run.audio.createAnalyser();
    analyser.fftSize = 2048;
    run.audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const started = performance.now();
    let heard = false;
    const timer = setInterval(() => {
      const level = levelOf(analyser, samples);
      run.onLevel(level);
      if (!heard && level >= HEARD_LEVEL) {
        heard = true;
        run.report('microphone', pass(TEXTS.microphoneWorks));
      } else if (!heard && performance.now() - started > MICROPHONE_WITHIN_MS) {
        heard = true;
        run.report('microphone', fail(TEXTS.nothingHeard, TEXTS.nothingHeardAdvice));
      }
    }, 50);
    run.cleanup.push(() => clearInterval(timer));
  } catch (error) {
    run.report('microphone', mediaFailure('microphone', error));
  }
}

/** STUN, the TURN relay and the round trip, from the call settings the call itself would use. */
export async function checkNetwork(run: CheckRun): Promise<void> {
  let settings: CallSettings;
  const ask = () => call('getCallSettings', { sessionId: run.sessionId });
  try {
    settings = await ask();
    const rttMs = await roundTripMs(ask);
    run.report(
      'rtt',
      rttMs <= RTT_LIMIT_MS
        ? { ...pass(serverAnswersText(rttMs)), rttMs }
        : {
            ...fail(serverSlowText(rttMs), TEXTS.slowAdvice),
            rttMs,
          },
    );
  } catch (error) {
    const down = fail(
      serverDownText(error instanceof Error ? error.message : String(error)),
      TEXTS.serverDownAdvice,
    );
    for (const item of ['stun', 'turn', 'rtt'] as const) run.report(item, down);
    return;
  }
  await Promise.all([checkStun(run, settings), checkTurn(run, settings)]);
}

async function checkStun(run: CheckRun, settings: CallSettings): Promise<void> {
  const stun = stunServers(settings);
  if (stun.length === 0) return run.report('stun', fail(TEXTS.noStun, TEXTS.askResearcher));
  const types = await gatherCandidateTypes({ iceServers: [...stun, ...turnServers(settings)] }, 'srflx');
  // A relay candidate means the TURN server answered, which STUN's binding request is a part of; a
  // browser leaves out a reflexive address that equals its own (no NAT between it and the server).
  run.report(
    'stun',
    types.has('srflx') || types.has('relay')
      ? pass(TEXTS.stunReached)
      : fail(TEXTS.stunNotReached, TEXTS.networkMayBlock),
  );
}

async function checkTurn(run: CheckRun, settings: CallSettings): Promise<void> {
  const turn = turnServers(settings);
  if (turn.length === 0) return run.report('turn', fail(TEXTS.noTurn, TEXTS.noTurnAdvice));
  const types = await gatherCandidateTypes({ iceServers: turn, iceTransportPolicy: 'relay' }, 'relay');
  run.report(
    'turn',
    types.has('relay') ? pass(TEXTS.turnReached) : fail(TEXTS.turnNotReached, TEXTS.networkMayBlock),
  );
}
