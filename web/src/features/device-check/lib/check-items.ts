import type { DeviceCheckItem, DeviceCheckOutcome } from '@uis/proto';

/** Round trips above this (ms) fail: a call would lag noticeably. */
export const RTT_LIMIT_MS = 800;

/** An item that passed or failed: what was found, what to do about a fail, and the round trip measured. */
export interface Settled {
  status: DeviceCheckOutcome;
  message: string;
  advice?: string;
  rttMs?: number;
}

export type ItemState = { status: 'checking' | 'waiting' } | Settled;

export type CheckState = Record<DeviceCheckItem, ItemState>;

/** What each item is called on the page, in the order it shows them. */
export const ITEM_LABELS = {
  camera: 'Camera',
  microphone: 'Microphone',
  speakers: 'Speakers',
  stun: 'Network: reaching the call server',
  turn: 'Network: relay for strict firewalls',
  rtt: 'Network: speed of the connection',
} as const satisfies Record<DeviceCheckItem, string>;

export const ITEMS = Object.keys(ITEM_LABELS) as DeviceCheckItem[];

export const pass = (message: string): Settled => ({ status: 'pass', message });
export const fail = (message: string, advice: string): Settled => ({ status: 'fail', message, advice });

/** A media error in plain words, with what to do about it. */
export function mediaFailure(device: 'camera' | 'microphone', error: unknown): ItemState {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return fail(
      `The browser is not allowed to use your ${device}.`,
      `Allow the ${device} for this site (the camera icon in the address bar, or the browser's site settings), then check again.`,
    );
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return fail(
      `No ${device} was found.`,
      `Connect a ${device} (or use a device that has one), then check again.`,
    );
  if (name === 'NotReadableError' || name === 'AbortError')
    return fail(
      `Your ${device} is in use or not working.`,
      `Close other apps that may use the ${device} (video calls, recorders), then check again.`,
    );
  return fail(
    `Your ${device} could not be started.`,
    'Try another browser, or restart this one, then check again.',
  );
}

/** True once every item has passed or failed. */
export const allDone = (state: CheckState): boolean =>
  ITEMS.every((item) => state[item].status === 'pass' || state[item].status === 'fail');
