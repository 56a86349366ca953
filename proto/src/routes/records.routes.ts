import { z } from 'zod';
import {
  CHAT_MESSAGE_MAX_CHARS,
  EXPORT_FILE_NAME,
  NAME_MAX_CHARS,
  RECORD_KINDS,
  STREAM_PIXEL_COLOR,
  type RecordKind,
} from '../constants';
import { Message, VALIDATION_TEXTS, id, requiredText } from '../fields';
import { defineRoutes } from '../route';
import { Prompt } from './content.routes';

/** A chat message's text: not blank, at most CHAT_MESSAGE_MAX_CHARS. */
export const messageText = () => requiredText(VALIDATION_TEXTS.empty, CHAT_MESSAGE_MAX_CHARS);

/**
 * The sender's display name as the spec's payloads carry it. Optional and only informative: the
 * server records the signed-in user's own name, so nobody can write as someone else.
 */
export const senderName = () =>
  z
    .string({ error: 'must be text' })
    .trim()
    .max(NAME_MAX_CHARS, `must be at most ${NAME_MAX_CHARS} characters`);

/** A fraction of the video area, 0 (left or top) to 1 (right or bottom), both included. */
export const fraction = () =>
  z
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be from 0 to 1')
    .max(1, 'must be from 0 to 1');

/** Seconds into the video when the click happened. */
export const videoTime = () =>
  z.number({ error: 'must be a number of seconds' }).min(0, 'must not be negative');

const RGB = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(\d{1,3}(?:\.\d+)?|\.\d+)\s*)?\)$/;
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/;
const isPixelColor = (color: string): boolean => {
  if (color === STREAM_PIXEL_COLOR || HEX.test(color)) return true;
  const match = RGB.exec(color);
  if (!match) return false;
  // The alpha may be a 0-1 fraction (CSS) or a 0-255 byte (canvas image data).
  return match.slice(1).every((part) => part === undefined || Number(part) <= 255);
};
/** The colour under a click: rgb()/rgba() text, a hex colour, or 'n/a' for a stream (spec section 3). */
export const pixelColor = () =>
  z
    .string({ error: 'must be text' })
    .trim()
    .toLowerCase()
    .max(64, 'must be at most 64 characters')
    .refine(isPixelColor, {
      message: `must be rgb(r, g, b), rgba(r, g, b, a), a hex colour or '${STREAM_PIXEL_COLOR}'`,
    });

export const MessageRecord = z.object({
  message_id: z.uuid(),
  message: z.string(),
  /** When it was sent, ISO 8601 (UTC). */
  time: z.iso.datetime(),
  name: z.string(),
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

/**
 * The columns of each export, in order (spec: a header row of the field names). The record's own
 * fields plus `email`, the author's address: the export is the session owner's study data, while
 * answers to participants never carry it. Prompt `time` is hh:mm:ss in the export, as it is typed.
 */
export const EXPORT_COLUMNS = {
  messages: ['message_id', 'time', 'name', 'email', 'message'] as const satisfies readonly (
    keyof MessageRecord | 'email'
  )[],
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
  prompts: ['prompt_id', 'time', 'duration', 'prompt'] as const satisfies readonly (keyof Prompt)[],
} as const satisfies Record<RecordKind, readonly string[]>;

/** One row of an export of `kind`: a cell per column; null is an empty cell. */
export type ExportRow<K extends RecordKind> = Record<
  (typeof EXPORT_COLUMNS)[K][number],
  string | number | null
>;

export const recordsRoutes = defineRoutes({
  getMessages: {
    method: 'GET',
    path: '/getMessages',
    service: 'records',
    access: 'user',
    summary: "A session's chat messages, oldest first; for its owner or a participant in its scope.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ messages: z.array(MessageRecord) }),
  },
  addMessage: {
    method: 'POST',
    path: '/addMessage',
    service: 'records',
    access: 'user',
    summary:
      "Records a chat message in a session the caller owns or is in, under the caller's own name (`name` is accepted but not trusted). Answers the created message, like every create call; edits and deletes answer a Message. The live chat goes through the socket instead, which also broadcasts it.",
    request: z.object({ name: senderName().optional(), message: messageText(), sessionId: id() }),
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
    summary:
      "The clicks recorded in one of the caller's sessions, oldest first. Researchers only: a participant does not see the others' clicks.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ pixels: z.array(PixelRecord) }),
  },
  addPixel: {
    method: 'POST',
    path: '/addPixel',
    service: 'records',
    access: 'researcher',
    summary:
      "Records a click in one of the caller's sessions: x and y are fractions 0 to 1 of the video area. Researchers only: participants' clicks come through the socket's clickVideo, which realtime records only while clicks are allowed, so this door cannot bypass that permission. Answers the created pixel.",
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
  exportRecords: {
    method: 'GET',
    path: '/exportRecords',
    service: 'records',
    access: 'researcher',
    extension: true,
    produces: 'csv',
    summary: `Downloads one kind of record of one of the caller's sessions as CSV: an attachment named ${EXPORT_FILE_NAME} (the spec's name), UTF-8 with a byte order mark, CRLF rows, a header row of the field names (EXPORT_COLUMNS, with the author's e-mail: the owner's study data), RFC 4180 quoting, and cells starting with = + - @ tab or CR prefixed with ' against formula injection. The spec exports in the browser; doing it on the server keeps large sessions out of the page. kind=prompts exports prompts (records asks content for them), time as hh:mm:ss.`,
    request: z.object({
      sessionId: id(),
      kind: z.enum(RECORD_KINDS, { error: `must be one of ${RECORD_KINDS.join(', ')}` }),
    }),
    answer: z.string(),
  },
});
