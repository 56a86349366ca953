import type { DeviceCheckItem, DeviceCheckOutcome } from '@uis/proto';
import { DEVICE_CHECK_ITEM_TEXTS } from '../../../i18n/en/common';
import { CHECK_RESULT_TEXTS, MEDIA_FAILURE_TEXTS as TEXTS } from '../../../i18n/en/device-check';

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
export const ITEM_LABELS = DEVICE_CHECK_ITEM_TEXTS;

export const ITEMS = Object.keys(ITEM_LABELS) as DeviceCheckItem[];

export const pass = (message: string): Settled => ({ status: 'pass', message });
export const fail = (message: string, advice: string): Settled => ({ status: 'fail', message, advice });

/** A media error in plain words, with what to do about it. */
export function mediaFailure(device: 'camera' | 'microphone', error: unknown): ItemState {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return fail(TEXTS.notAllowed(device), TEXTS.notAllowedAdvice(device));
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return fail(TEXTS.notFound(device), TEXTS.notFoundAdvice(device));
  if (name === 'NotReadableError' || name === 'AbortError')
    return fail(TEXTS.busy(device), TEXTS.busyAdvice(device));
  return fail(TEXTS.notStarted(device), CHECK_RESULT_TEXTS.mediaFailedAdvice);
}

/** True once every item has passed or failed. */
export const allDone = (state: CheckState): boolean =>
  ITEMS.every((item) => state[item].status === 'pass' || state[item].status === 'fail');
