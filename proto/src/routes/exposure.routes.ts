import { z } from 'zod';
import { id, videoTime } from '../fields';
import { defineRoutes } from '../route';
import { RECORD_LIST_PAGING, nextPage, recordListRequest } from './records.routes';

/**
 * Ours: what a participant was exposed to, as data. Realtime records their joins and leaves itself;
 * their client reports the rest (sound off and on, the tab hidden and shown, fullscreen, the video
 * stalling to buffer and playing again) in batches over the socket's `exposure` event.
 */

/** Every kind of exposure event, in the order of a typical run. */
export const EXPOSURE_KINDS = [
  'join',
  'leave',
  'mute',
  'unmute',
  'hidden',
  'visible',
  'fullscreen_enter',
  'fullscreen_exit',
  'stall',
  'stall_end',
] as const;
export type ExposureKind = (typeof EXPOSURE_KINDS)[number];

/** The kinds a client reports (joins and leaves are realtime's own: a client cannot claim them). */
export const CLIENT_EXPOSURE_KINDS = [
  'mute',
  'unmute',
  'hidden',
  'visible',
  'fullscreen_enter',
  'fullscreen_exit',
  'stall',
  'stall_end',
] as const satisfies readonly ExposureKind[];
export type ClientExposureKind = (typeof CLIENT_EXPOSURE_KINDS)[number];

/** Epoch milliseconds of the client's own clock. */
const epochMs = () =>
  z
    .number({ error: 'must be a time in epoch milliseconds' })
    .int('must be a whole number of milliseconds')
    .positive('must be a time in epoch milliseconds');

/**
 * One event as a client reports it. `eventId` is the client's own (a UUID it makes once and keeps
 * when it sends the event again), so a batch sent twice (no acknowledgement came) is stored once.
 */
export const ClientExposureEvent = z.object({
  eventId: id(),
  kind: z.enum(CLIENT_EXPOSURE_KINDS, { error: `must be one of ${CLIENT_EXPOSURE_KINDS.join(', ')}` }),
  /** Where the participant's own player was (seconds), or null without a player (a chat session). */
  videoTime: videoTime().nullable(),
  /** When it happened, by the client's clock. */
  clientTime: epochMs(),
});
export type ClientExposureEvent = z.infer<typeof ClientExposureEvent>;

/** One stored exposure event, as the session's owner reads it. */
export const ExposureRecord = z.object({
  /** The client's event id (realtime's own for joins and leaves). */
  exposure_id: z.uuid(),
  /** When records stored it, ISO 8601 (UTC): the server's clock. */
  time: z.iso.datetime(),
  /** When it happened by the participant's clock, ISO 8601; null for joins and leaves (realtime's). */
  clientTime: z.iso.datetime().nullable(),
  userId: z.uuid(),
  name: z.string(),
  kind: z.enum(EXPOSURE_KINDS),
  /**
   * Seconds into the video: the participant's player for what their client reported; for a join
   * or a leave, where the session's video was then (the room's status), or null before any.
   */
  videoTime: z.number().nullable(),
});
export type ExposureRecord = z.infer<typeof ExposureRecord>;

export const exposureRoutes = defineRoutes({
  getExposureEvents: {
    method: 'GET',
    path: '/getExposureEvents',
    service: 'records',
    access: 'researcher',
    extension: true,
    summary: `The exposure log of one of the caller's sessions, oldest first: each participant's joins and leaves (realtime's), and what their client reported: sound off and on, the tab hidden and shown, fullscreen entered and left, the video stalling to buffer and playing again, each with the participant's video time and their client's time. Another researcher's session: 403. ${RECORD_LIST_PAGING}`,
    request: recordListRequest(),
    answer: z.object({ events: z.array(ExposureRecord), next: nextPage() }),
  },
});
