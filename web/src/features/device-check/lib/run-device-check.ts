import type { CallSettings, DeviceCheckItem } from '@uis/proto';
import { call } from '../../../api/client';
import { fail, mediaFailure, pass, RTT_LIMIT_MS, type ItemState } from './check-items';
import { HEARD_LEVEL, MICROPHONE_WITHIN_MS, firstFrame, levelOf } from './media-probes';
import { gatherCandidateTypes, roundTripMs, stunServers, turnServers } from './network-probes';

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

const ASK_RESEARCHER = 'Tell the researcher: the call may not connect from this network.';
/** The advice when the call server or the relay cannot be reached. */
const NETWORK_MAY_BLOCK =
  'Your network may block it: try another network (e.g. your phone’s hotspot). ' + ASK_RESEARCHER;

export async function checkCamera(run: CheckRun): Promise<void> {
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ video: true });
    run.cleanup.push(() => stream.getTracks().forEach((track) => track.stop()));
    run.video.srcObject = stream;
    void run.video.play().catch(() => undefined);
    run.report(
      'camera',
      (await firstFrame(run.video))
        ? pass('Your camera works: you should see yourself.')
        : fail(
            'Your camera sends no picture.',
            'Check that nothing covers it and no other app uses it, then check again.',
          ),
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
        run.report('microphone', pass('Your microphone works: the bar moves when you speak.'));
      } else if (!heard && performance.now() - started > MICROPHONE_WITHIN_MS) {
        heard = true;
        run.report(
          'microphone',
          fail(
            'We heard nothing from your microphone.',
            'Unmute it (some headsets have a switch), choose the right microphone in your system settings, speak, then check again.',
          ),
        );
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
        ? { ...pass(`The server answers in ${rttMs} ms.`), rttMs }
        : {
            ...fail(
              `The server takes ${rttMs} ms to answer: the call may lag.`,
              'Move closer to your Wi-Fi router or use a wired connection, and close downloads or streams.',
            ),
            rttMs,
          },
    );
  } catch (error) {
    const down = fail(
      `The server could not be reached (${error instanceof Error ? error.message : String(error)}).`,
      'Check your internet connection, then check again.',
    );
    for (const item of ['stun', 'turn', 'rtt'] as const) run.report(item, down);
    return;
  }
  await Promise.all([checkStun(run, settings), checkTurn(run, settings)]);
}

async function checkStun(run: CheckRun, settings: CallSettings): Promise<void> {
  const stun = stunServers(settings);
  if (stun.length === 0)
    return run.report('stun', fail('No STUN server is configured for calls.', ASK_RESEARCHER));
  const types = await gatherCandidateTypes({ iceServers: [...stun, ...turnServers(settings)] }, 'srflx');
  // A relay candidate means the TURN server answered, which STUN's binding request is a part of; a
  // browser leaves out a reflexive address that equals its own (no NAT between it and the server).
  run.report(
    'stun',
    types.has('srflx') || types.has('relay')
      ? pass('Your browser reached the call server.')
      : fail('Your browser could not reach the call server (STUN).', NETWORK_MAY_BLOCK),
  );
}

async function checkTurn(run: CheckRun, settings: CallSettings): Promise<void> {
  const turn = turnServers(settings);
  if (turn.length === 0)
    return run.report(
      'turn',
      fail(
        'Relay not available: this deployment has no TURN server.',
        'Calls still connect on most home networks; on a strict one (work, school) they may not. ' +
          ASK_RESEARCHER,
      ),
    );
  const types = await gatherCandidateTypes({ iceServers: turn, iceTransportPolicy: 'relay' }, 'relay');
  run.report(
    'turn',
    types.has('relay')
      ? pass('A relay was set up: the call connects even behind a strict firewall.')
      : fail('The relay server (TURN) could not be reached.', NETWORK_MAY_BLOCK),
  );
}
