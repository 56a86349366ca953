import { z } from 'zod';
import { id, requiredText } from '../fields';
import { defineRoutes } from '../route';
import { RECORD_LIST_PAGING, nextPage, recordListRequest } from './records.routes';

/**
 * Ours: the pre-session check of a call session's participant. The browser checks its
 * camera, microphone, speakers and network and stores what passed (never audio or video) with the
 * participant's records, so a researcher can tell why someone had no video.
 */

/** What is checked, in the order the page shows it. */
export const DEVICE_CHECK_ITEMS = ['camera', 'microphone', 'speakers', 'stun', 'turn', 'rtt'] as const;
export type DeviceCheckItem = (typeof DEVICE_CHECK_ITEMS)[number];

export const DEVICE_CHECK_OUTCOMES = ['pass', 'fail'] as const;
export type DeviceCheckOutcome = (typeof DEVICE_CHECK_OUTCOMES)[number];

const RTT_MAX_MS = 600_000;

/** Checks one person may store in one session per DEVICE_CHECK_WINDOW_MINUTES: re-running it, not a script. */
export const DEVICE_CHECKS_PER_WINDOW = 10;
export const DEVICE_CHECK_WINDOW_MINUTES = 10;

const outcome = () => z.enum(DEVICE_CHECK_OUTCOMES, { error: 'must be pass or fail' });

/** One stored check: who, when, which browser, and each item's outcome. */
export const DeviceCheck = z.object({
  device_check_id: z.uuid(),
  /** When it was stored, ISO 8601 (UTC). */
  time: z.iso.datetime(),
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  browserName: z.string(),
  browserVersion: z.string(),
  camera: z.enum(DEVICE_CHECK_OUTCOMES),
  microphone: z.enum(DEVICE_CHECK_OUTCOMES),
  speakers: z.enum(DEVICE_CHECK_OUTCOMES),
  stun: z.enum(DEVICE_CHECK_OUTCOMES),
  turn: z.enum(DEVICE_CHECK_OUTCOMES),
  rtt: z.enum(DEVICE_CHECK_OUTCOMES),
  /** The measured round trip to the server (ms), or null when it could not be measured. */
  rttMs: z.number().int().nullable(),
});
export type DeviceCheck = z.infer<typeof DeviceCheck>;

export const deviceCheckRoutes = defineRoutes({
  saveDeviceCheck: {
    method: 'POST',
    path: '/saveDeviceCheck',
    service: 'records',
    access: 'user',
    extension: true,
    summary: `The owner or a participant in the session's scope stores the outcome of their pre-session check (pass or fail for the camera, microphone, speakers, STUN, TURN relay and round trip; the browser's name and version; the measured round trip): never audio or video. Each check is kept; the researcher sees them all (/getDeviceChecks) and exports them (device-checks.csv). ${DEVICE_CHECKS_PER_WINDOW} checks per person and session in ${DEVICE_CHECK_WINDOW_MINUTES} minutes; more are refused with 429 saying when to retry.`,
    request: z.object({
      sessionId: id(),
      browserName: requiredText('must not be empty', 60),
      browserVersion: requiredText('must not be empty', 40),
      camera: outcome(),
      microphone: outcome(),
      speakers: outcome(),
      stun: outcome(),
      turn: outcome(),
      rtt: outcome(),
      rttMs: z
        .number({ error: 'must be a number of milliseconds' })
        .int('must be a whole number of milliseconds')
        .min(0, 'must not be negative')
        .max(RTT_MAX_MS, `must be at most ${RTT_MAX_MS}`)
        .nullable()
        .optional(),
    }),
    answer: z.object({ check: DeviceCheck }),
  },
  getDeviceChecks: {
    method: 'GET',
    path: '/getDeviceChecks',
    service: 'records',
    access: 'researcher',
    extension: true,
    summary: `The pre-session checks stored for one of the caller's sessions, oldest first: who, when, the browser, and each item's pass or fail. Another researcher's session: 403. ${RECORD_LIST_PAGING}`,
    request: recordListRequest(),
    answer: z.object({ checks: z.array(DeviceCheck), next: nextPage() }),
  },
});
