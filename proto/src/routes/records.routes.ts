import { z } from 'zod';
import { PLAYBACK_EVENTS } from '../constants';
import { DATA_EXPORT_TABLES, type DataExportTable } from '../export-codebook';
import { Message, fraction, id, messageText, pixelColor, senderName, videoTime } from '../fields';
import { defineRoutes } from '../route';
import { sessionOrGroupRequest } from './session-or-group';

/**
 * Rows of one page of a list of a session's records (getMessages, getPixels, getPlayback,
 * getDeviceChecks, getSessionWithdrawals): a session of more is read a page at a time, so no answer
 * holds a long session at once.
 */
export const RECORD_LIST_PAGE_ROWS = 500;

/** How the lists page, for their summaries (and the OpenAPI document). */
export const RECORD_LIST_PAGING = `Pages of ${RECORD_LIST_PAGE_ROWS} records, oldest first: while more follow, \`next\` is the id of the page's last record, to send as \`after\` for the next page; null on the last page (so a smaller session is one answer). An \`after\` that is not a record of this list in this session: 404.`;

/** The request of a list: the session, and the previous page's `next` for any page but the first. */
export const recordListRequest = () => z.object({ sessionId: id(), after: id().optional() });

/**
 * An answer's cursor of the next page: the id of the page's last record, or null on the last page
 * (also when absent: a server before paging answered every record at once).
 */
export const nextPage = () => z.uuid().nullable().default(null);

export const MessageRecord = z.object({
  message_id: z.uuid(),
  /**
   * Its place in the session's chat (a decimal integer, counted per session from 1 in the order
   * records stored the messages, so it says nothing of other sessions): see compareMessages.
   */
  seq: z.string().regex(/^\d+$/, 'must be a decimal integer'),
  message: z.string(),
  /** When it was sent, ISO 8601 (UTC). */
  time: z.iso.datetime(),
  name: z.string(),
  /**
   * The session's video time when it was stored (seconds): where the researcher's player was at
   * `time`, by the server's clock. Null when the researcher has not played anything yet (a chat session).
   */
  videoTime: z.number().nullable(),
  /** The action's id when the message is a reaction ('{name} reacted with ...'), else null. */
  actionId: z.uuid().nullable(),
});
export type MessageRecord = z.infer<typeof MessageRecord>;

export const PixelRecord = z.object({
  pixel_id: z.uuid(),
  /** When the click happened, ISO 8601 (UTC). */
  time: z.iso.datetime(),
  name: z.string(),
  color: z.string(),
  x: z.number(),
  y: z.number(),
  sessionId: z.uuid(),
  /** Seconds into the video, or null when the click was not on a playing video (a chat session). */
  videoTime: z.number().nullable(),
});
export type PixelRecord = z.infer<typeof PixelRecord>;

/** One entry of a session's playback log: what the researcher's player did, and where. */
export const PlaybackRecord = z.object({
  playback_id: z.uuid(),
  /** Its place in the session's log (a decimal integer, counted per session from 1 in the order stored). */
  seq: z.string().regex(/^\d+$/, 'must be a decimal integer'),
  /** When the server received it, ISO 8601 (UTC). */
  time: z.iso.datetime(),
  /** The researcher who played. */
  name: z.string(),
  event: z.enum(PLAYBACK_EVENTS),
  /** Seconds into the video: where the player was (for a seek, where it went to). */
  videoTime: z.number(),
  playbackRate: z.number(),
  /** The prompt that fired (event 'prompt'), else null. */
  promptId: z.uuid().nullable(),
});
export type PlaybackRecord = z.infer<typeof PlaybackRecord>;

/**
 * What the audit log keeps of a message or click it changes (its `before` and `after`, as JSON): the
 * record's own fields plus `email`, the author's address. Stored entries have these fields, so they
 * stay; the exports write their own columns (EXPORT_TABLES, export-codebook.ts).
 */
export const AUDIT_SNAPSHOT_FIELDS = {
  messages: [
    'message_id',
    'time',
    'videoTime',
    'name',
    'email',
    'message',
    'actionId',
  ] as const satisfies readonly (keyof MessageRecord | 'email')[],
  pixels: [
    'pixel_id',
    'time',
    'name',
    'email',
    'color',
    'x',
    'y',
    'videoTime',
    'sessionId',
  ] as const satisfies readonly (keyof PixelRecord | 'email')[],
} as const;

/** A logged record of `kind` (AUDIT_SNAPSHOT_FIELDS); null is a missing value. */
export type AuditSnapshot<K extends keyof typeof AUDIT_SNAPSHOT_FIELDS> = Record<
  (typeof AUDIT_SNAPSHOT_FIELDS)[K][number],
  string | number | null
>;

/** What a session, or every session of a group, holds that deleting it loses (records' part). */
export const RecordCounts = z.object({
  /** The sessions counted: 1 for a session, the group's sessions for a group. */
  sessions: z.number().int().nonnegative(),
  /** Chat messages, reactions included. */
  messages: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
});
export type RecordCounts = z.infer<typeof RecordCounts>;

export const recordsRoutes = defineRoutes({
  getMessages: {
    method: 'GET',
    path: '/getMessages',
    service: 'records',
    access: 'user',
    summary: `A session's chat messages, oldest first; for its owner or a participant in its scope. ${RECORD_LIST_PAGING}`,
    request: recordListRequest(),
    answer: z.object({ messages: z.array(MessageRecord), next: nextPage() }),
  },
  addMessage: {
    method: 'POST',
    path: '/addMessage',
    service: 'records',
    access: 'user',
    summary:
      "Records a chat message in a session the caller owns or is in, under the caller's own name (`name` is accepted but not trusted). Answers the created message, like every create call; edits and deletes answer a Message. The live chat goes through the socket instead, which also broadcasts it. Counted with /addPixel like live messages and clicks: LIVE_WRITE_LIMIT per user and session per 10 s, more are refused with 429 saying when to retry.",
    request: z.object({
      name: senderName().optional(),
      message: messageText(),
      sessionId: id(),
      /** Where the video was, as the caller says (the live chat's server-side time is not known here). */
      videoTime: videoTime().nullable().optional(),
      /** The action's id when the message is a reaction. */
      actionId: id().nullable().optional(),
    }),
    answer: z.object({ message: MessageRecord }),
  },
  editMessage: {
    method: 'POST',
    path: '/editMessage',
    service: 'records',
    access: 'researcher',
    summary: "Changes the text of a message of one of the caller's sessions (the record panel).",
    request: z.object({ messageId: id(), message: messageText() }),
    answer: Message,
  },
  deleteMessage: {
    method: 'POST',
    path: '/deleteMessage',
    service: 'records',
    access: 'researcher',
    summary: "Deletes a message of one of the caller's sessions.",
    request: z.object({ messageId: id() }),
    answer: Message,
  },
  getPixels: {
    method: 'GET',
    path: '/getPixels',
    service: 'records',
    access: 'researcher',
    summary: `The clicks recorded in one of the caller's sessions, oldest first. Researchers only: a participant does not see the others' clicks. ${RECORD_LIST_PAGING}`,
    request: recordListRequest(),
    answer: z.object({ pixels: z.array(PixelRecord), next: nextPage() }),
  },
  addPixel: {
    method: 'POST',
    path: '/addPixel',
    service: 'records',
    access: 'researcher',
    summary:
      "Records a click in one of the caller's sessions: x and y are fractions 0 to 1 of the video area. Researchers only: participants' clicks come through the socket's clickVideo, which realtime records only while clicks are allowed, so this door cannot bypass that permission. Answers the created pixel. Counted with /addMessage (LIVE_WRITE_LIMIT per user and session per 10 s; more: 429).",
    request: z.object({
      color: pixelColor(),
      name: senderName().optional(),
      x: fraction(),
      y: fraction(),
      sessionId: id(),
      videoTime: videoTime().nullable().optional(),
    }),
    answer: z.object({ pixel: PixelRecord }),
  },
  deletePixel: {
    method: 'POST',
    path: '/deletePixel',
    service: 'records',
    access: 'researcher',
    summary: "Deletes a click of one of the caller's sessions.",
    request: z.object({ pixelId: id() }),
    answer: Message,
  },
  getPlayback: {
    method: 'GET',
    path: '/getPlayback',
    service: 'records',
    access: 'researcher',
    extension: true,
    summary: `The playback log of one of the caller's sessions, oldest first: every play, pause, seek and rate change of the researcher's player, and every prompt it fired, with the server time and the video time. Realtime writes it; nobody edits it. ${RECORD_LIST_PAGING}`,
    request: recordListRequest(),
    answer: z.object({ playback: z.array(PlaybackRecord), next: nextPage() }),
  },
  getRecordCounts: {
    method: 'GET',
    path: '/getRecordCounts',
    service: 'records',
    access: 'researcher',
    extension: true,
    summary:
      "How many chat messages (reactions included) and clicks one of the caller's sessions (sessionId), or every session of one of the caller's groups (groupId), holds. The dashboard and the session editor say what a deletion loses before the researcher confirms it; reading every page of the lists for a count would cost a long session's whole history.",
    request: sessionOrGroupRequest(),
    answer: RecordCounts,
  },
  exportRecords: {
    method: 'GET',
    path: '/exportRecords',
    service: 'records',
    access: 'researcher',
    extension: true,
    produces: 'csv',
    summary: `Downloads one table of one of the caller's sessions as CSV, exactly that table's file of the study export for this session alone (EXPORT_TABLES: columns, types and meanings): an attachment named <session-title-slug>-<kind>.csv (the spec named every export File.csv; a name that says what it holds replaces it deliberately), UTF-8 without a byte order mark, CRLF rows, a header row of the column names, RFC 4180 quoting, and cells starting with = + - @ tab or CR prefixed with ' against formula injection. People are pseudonymous participant_ids (no e-mails); instants are ISO 8601 UTC (\`_at\`), video positions and durations whole milliseconds (\`_ms\`). kind is a record tab's (messages, pixels, prompts, playback) or any other table of the study export but identifiers; prompts, actions and sessions are asked of content and studies.`,
    request: z.object({
      sessionId: id(),
      kind: z.enum(DATA_EXPORT_TABLES as [DataExportTable, ...DataExportTable[]], {
        error: `must be one of ${DATA_EXPORT_TABLES.join(', ')}`,
      }),
    }),
    answer: z.string(),
  },
});
