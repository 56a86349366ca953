import { REALTIME_RECONNECT_DELAY_MAX_MS, REALTIME_RECONNECT_DELAY_MS } from '@uis/proto/browser';

export interface CallTimings {
  /** Registration and redial retries back off from this... */
  retryMs: number;
  /** ...to at most this (the live connection's own reconnect delays). */
  retryMaxMs: number;
  /** A participant's call not answered by then is placed again. */
  answerTimeoutMs: number;
  /** A call whose ICE stays disconnected this long is hung up (and a participant calls again). */
  iceDisconnectedMs: number;
  /** TURN credentials are renewed this long before they expire (or halfway, when they live shorter). */
  renewSettingsBeforeMs: number;
}

export const CALL_TIMINGS: CallTimings = {
  retryMs: REALTIME_RECONNECT_DELAY_MS,
  retryMaxMs: REALTIME_RECONNECT_DELAY_MAX_MS,
  answerTimeoutMs: 15_000,
  iceDisconnectedMs: 10_000,
  renewSettingsBeforeMs: 5 * 60_000,
};
