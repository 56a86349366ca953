import { z } from 'zod';
import { clockTime } from '../clock';
import {
  ASSETS_PATH,
  CHAT_MESSAGE_MAX_CHARS,
  DEFAULT_ACTION_COLOR,
  DEFAULT_ACTION_ICON,
  DEFAULT_ACTION_NAME,
  DEFAULT_ICON_STYLE,
  ICON_NAME_MAX_CHARS,
  ICON_STYLES,
  NAME_MAX_CHARS,
  PROMPT_DURATION_MAX_SECONDS,
  TRANSPARENT,
} from '../constants';
import { Message, VALIDATION_TEXTS, id, requiredText, textRules } from '../fields';
import { defineRoutes } from '../route';

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/;
/** An action's colour: #rgb, #rrggbb, #rrggbbaa or 'transparent' (lower-cased). */
export const actionColor = () =>
  z
    .string({ error: 'must be text' })
    .trim()
    .toLowerCase()
    .refine((color) => color === TRANSPARENT || HEX_COLOR.test(color), {
      message: `must be a hex colour (#rgb, #rrggbb or #rrggbbaa) or '${TRANSPARENT}'`,
    });

/** A Material icon name, such as thumb_up. */
export const iconName = () =>
  z
    .string({ error: 'must be text' })
    .trim()
    .min(1, VALIDATION_TEXTS.empty)
    .max(ICON_NAME_MAX_CHARS, `must be at most ${ICON_NAME_MAX_CHARS} characters`)
    .regex(/^[a-z0-9_]+$/, 'must be a Material icon name (lowercase letters, digits and underscores)');

export const iconStyle = () => z.enum(ICON_STYLES, { error: `must be one of ${ICON_STYLES.join(', ')}` });

/** Seconds a prompt holds the video paused; 0 means it stays paused. */
export const promptDuration = () =>
  z
    .number({ error: 'must be a number of seconds' })
    .min(0, 'must not be negative')
    .max(PROMPT_DURATION_MAX_SECONDS, `must be at most ${PROMPT_DURATION_MAX_SECONDS} seconds`);

const actionName = () => requiredText(VALIDATION_TEXTS.empty, NAME_MAX_CHARS);
/** Prompt text may be empty while being written; it is sent as a chat message, so it shares that limit. */
const promptText = () =>
  textRules(
    z
      .string({ error: 'must be text' })
      .max(CHAT_MESSAGE_MAX_CHARS, `must be at most ${CHAT_MESSAGE_MAX_CHARS} characters`),
    'lines',
  );

export const Action = z.object({
  action_id: z.uuid(),
  name: z.string(),
  color: z.string(),
  icon: z.string(),
  type: z.enum(ICON_STYLES),
});
export type Action = z.infer<typeof Action>;

export const Prompt = z.object({
  prompt_id: z.uuid(),
  /** Seconds from the start of the session (sent as hh:mm:ss text). */
  time: z.number(),
  duration: z.number(),
  prompt: z.string(),
});
export type Prompt = z.infer<typeof Prompt>;

/** Longest stored video file name: uploads are renamed to fit (a stem of at most 100 characters + .mp4). */
export const VIDEO_NAME_MAX_CHARS = 120;

/** `name` is null when the session has no video. */
export const VideoInfo = z.object({ name: z.string().nullable() });
export type VideoInfo = z.infer<typeof VideoInfo>;

/** Where the player loads a session's video from (spec section 3: keyed by session id and file name). */
export const videoAssetPath = (sessionId: string, name: string): string =>
  `${ASSETS_PATH}/${encodeURIComponent(sessionId)}/${encodeURIComponent(name)}`;

const ACTION_EDIT_FIELDS = ['name', 'color', 'icon', 'type'] as const;
const PROMPT_EDIT_FIELDS = ['time', 'duration', 'prompt'] as const;
const nothingToChange = (fields: readonly string[]) =>
  `nothing to change: send at least one of ${fields.join(', ')}`;

export const contentRoutes = defineRoutes({
  getActions: {
    method: 'GET',
    path: '/getActions',
    service: 'content',
    access: 'user',
    summary:
      "A session's actions (reaction icons), oldest first; for its owner or a participant in its scope.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ actions: z.array(Action) }),
  },
  addAction: {
    method: 'POST',
    path: '/addAction',
    service: 'content',
    access: 'researcher',
    summary: `Adds an action to one of the caller's sessions (defaults: name '${DEFAULT_ACTION_NAME}', icon ${DEFAULT_ACTION_ICON}, colour ${DEFAULT_ACTION_COLOR}, style ${DEFAULT_ICON_STYLE}). Create calls answer the created object, so the editor has its id; edits and deletes answer a Message.`,
    request: z.object({
      sessionId: id(),
      name: actionName().default(DEFAULT_ACTION_NAME),
      color: actionColor().default(DEFAULT_ACTION_COLOR),
      icon: iconName().default(DEFAULT_ACTION_ICON),
      type: iconStyle().default(DEFAULT_ICON_STYLE),
    }),
    answer: z.object({ action: Action }),
  },
  editAction: {
    method: 'POST',
    path: '/editAction',
    service: 'content',
    access: 'researcher',
    summary:
      "Changes any of name, color, icon and type of an action of one of the caller's sessions; at least one must be sent.",
    request: z
      .object({
        actionId: id(),
        name: actionName().optional(),
        color: actionColor().optional(),
        icon: iconName().optional(),
        type: iconStyle().optional(),
      })
      .refine((edit) => ACTION_EDIT_FIELDS.some((field) => edit[field] !== undefined), {
        message: nothingToChange(ACTION_EDIT_FIELDS),
      }),
    answer: Message,
  },
  deleteAction: {
    method: 'POST',
    path: '/deleteAction',
    service: 'content',
    access: 'researcher',
    summary: "Deletes an action of one of the caller's sessions.",
    request: z.object({ actionId: id() }),
    answer: Message,
  },
  getPrompts: {
    method: 'GET',
    path: '/getPrompts',
    service: 'content',
    access: 'researcher',
    summary:
      "The prompts of one of the caller's sessions, by time. `time` is in seconds from the start. Researchers only: the researcher's player fires them.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ prompts: z.array(Prompt) }),
  },
  addPrompt: {
    method: 'POST',
    path: '/addPrompt',
    service: 'content',
    access: 'researcher',
    summary:
      "Adds a prompt to one of the caller's sessions: `time` as hh:mm:ss (default 00:00:00), `duration` in seconds, not negative (default 0), `prompt` text (default empty). Answers the created prompt. Prompts are keyed by their start second (spec section 3), so a second prompt at the same second of the same session is a 409 that names the time; edit the one there instead.",
    request: z.object({
      sessionId: id(),
      time: clockTime().default(0),
      duration: promptDuration().default(0),
      prompt: promptText().default(''),
    }),
    answer: z.object({ prompt: Prompt }),
  },
  editPrompt: {
    method: 'POST',
    path: '/editPrompt',
    service: 'content',
    access: 'researcher',
    summary:
      "Changes any of time (hh:mm:ss), duration (seconds, not negative) and prompt of a prompt of one of the caller's sessions; at least one must be sent. Moving it to a second another prompt of the session starts at is a 409, as in /addPrompt.",
    request: z
      .object({
        promptId: id(),
        time: clockTime().optional(),
        duration: promptDuration().optional(),
        prompt: promptText().optional(),
      })
      .refine((edit) => PROMPT_EDIT_FIELDS.some((field) => edit[field] !== undefined), {
        message: nothingToChange(PROMPT_EDIT_FIELDS),
      }),
    answer: Message,
  },
  deletePrompt: {
    method: 'POST',
    path: '/deletePrompt',
    service: 'content',
    access: 'researcher',
    summary: "Deletes a prompt of one of the caller's sessions.",
    request: z.object({ promptId: id() }),
    answer: Message,
  },
  getVideoInfo: {
    method: 'GET',
    path: '/getVideoInfo',
    service: 'content',
    access: 'user',
    summary:
      "The name of a session's uploaded video (null when there is none), for its owner or a participant in its scope. The player loads it from videoAssetPath(sessionId, name).",
    request: z.object({ sessionId: id() }),
    answer: VideoInfo,
  },
  uploadVideo: {
    method: 'POST',
    path: '/uploadVideo',
    service: 'content',
    access: 'researcher',
    multipartFile: 'file',
    summary:
      "Stores the session's one video, replacing any earlier one. Multipart form with the file in `file` and `sessionId` as a text field, once (a repeated field is a 400), in either order (sessionId first lets the server refuse a stranger before the file is read). Only real MP4, checked by its ISO-BMFF box structure as it arrives (ftyp first with an MP4 brand, well-formed boxes adding up exactly to the file, a moov box), not by its name: 415 otherwise. Up to content's VIDEO_MAX_BYTES (default VIDEO_UPLOAD_MAX_BYTES) and within the researcher's VIDEO_QUOTA_BYTES (413 beyond either), at most UPLOADS_PER_USER at once per researcher (429), only for a session of type video (409 otherwise); 503 when the object store cannot take it (nothing is kept). The file name is sanitised (letters, digits, . _ -, ending in .mp4). Answers the stored name.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ name: z.string() }),
  },
  deleteVideo: {
    method: 'POST',
    path: '/deleteVideo',
    service: 'content',
    access: 'researcher',
    summary:
      "Deletes the session's video (succeeds when there is none, so switching type twice is harmless).",
    request: z.object({ sessionId: id() }),
    answer: Message,
  },
  videoAsset: {
    method: 'GET',
    path: `${ASSETS_PATH}/:sessionId/:file`,
    service: 'content',
    access: 'user',
    produces: 'file',
    extension: true,
    summary:
      "Streams a session's uploaded video from the assets path the spec keys by session id and file name (videoAssetPath), for its owner or a participant in its scope. The spec only names the path; we add HTTP Range (206, 416 with `Content-Range: bytes */size`), a strong ETag with If-None-Match (304) and If-Range, Accept-Ranges and private caching, so a browser's player can seek. The access token may come as the accessToken cookie, since a <video> element cannot send a header. sessionId and file are path parameters; HEAD answers the headers only.",
    /** Path parameters, not a query string. */
    request: z.object({
      sessionId: id(),
      file: requiredText(VALIDATION_TEXTS.empty, VIDEO_NAME_MAX_CHARS),
    }),
    /** The video's bytes (video/mp4), not the envelope. */
    answer: z.unknown(),
  },
});
