import { z } from 'zod';
import {
  CHAT_MESSAGE_MAX_CHARS,
  NAME_MAX_CHARS,
  RETURN_PATH_MAX_CHARS,
  RETURN_PATH_PATTERN,
  STREAM_PIXEL_COLOR,
  VALIDATION_TEXTS,
} from './constants';

export { VALIDATION_TEXTS } from './constants';

export const SPEC_TEXTS: ReadonlySet<string> = new Set(Object.values(VALIDATION_TEXTS));

/**
 * What a text field holds: `line` (a name, a title, a URL, a token) or `lines` (a chat message, a
 * prompt, a track), which may also hold line breaks and tabs.
 */
export type TextShape = 'line' | 'lines';

/** C0 and C1 control characters (NUL included) but tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_BREAKS_AND_TABS = /[\t\n\r]/;
/**
 * Bidirectional formatting characters: in a name or a title, an override (U+202E) makes a list
 * show text other than what is stored ('evil\u202Egnp.exe'), so one-line fields refuse them.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

export const TEXT_RULE_MESSAGES = {
  control: 'must not contain control characters',
  lineBreak: 'must be one line, without line breaks or tabs',
  bidi: 'must not contain bidirectional control characters',
} as const;

/** The character rules of every text field: no control characters, and for one line no breaks or bidi controls. */
export const textRules = <S extends z.ZodString>(schema: S, shape: TextShape): S =>
  shape === 'lines'
    ? schema.refine((text) => !CONTROL_CHARACTERS.test(text), TEXT_RULE_MESSAGES.control)
    : schema
        .refine((text) => !CONTROL_CHARACTERS.test(text), TEXT_RULE_MESSAGES.control)
        .refine((text) => !LINE_BREAKS_AND_TABS.test(text), TEXT_RULE_MESSAGES.lineBreak)
        .refine((text) => !BIDI_CONTROLS.test(text), TEXT_RULE_MESSAGES.bidi);

/** Text that must be present and not blank; `emptyMessage` is used for both missing and blank. */
export const requiredText = (
  emptyMessage: string = VALIDATION_TEXTS.empty,
  max = 10_000,
  shape: TextShape = 'line',
) =>
  textRules(
    z
      .string({ error: (iss) => (iss.input == null ? emptyMessage : 'must be text') })
      .trim()
      .min(1, emptyMessage)
      .max(max, `must be at most ${max} characters`),
    shape,
  );

/** Text that may be empty (trimmed), with the same character rules. */
export const optionalText = (max: number, shape: TextShape = 'line') =>
  textRules(z.string({ error: 'must be text' }).trim().max(max, `must be at most ${max} characters`), shape);

/** An e-mail address, trimmed and lower-cased so one person has one account. */
export const email = (emptyMessage: string = VALIDATION_TEXTS.empty) =>
  requiredText(emptyMessage, 254)
    .toLowerCase()
    .pipe(z.email({ error: 'is not a valid e-mail address' }));

/** Ids are UUIDs everywhere; a wrong one is a 400, never a database error. */
export const id = () =>
  z.uuid({
    error: (iss) => (iss.input == null ? VALIDATION_TEXTS.empty : 'is not a valid id'),
  });

/** An opaque token from a link or cookie. */
export const opaqueToken = () => requiredText(VALIDATION_TEXTS.empty, 512);

/** A path of this app to open after signing in (RETURN_PATH_PATTERN: never another site). */
export const returnPath = () =>
  z
    .string({ error: 'must be a path of this app' })
    .max(RETURN_PATH_MAX_CHARS, `must be at most ${RETURN_PATH_MAX_CHARS} characters`)
    .regex(RETURN_PATH_PATTERN, 'must be a path of this app, starting with a single /');

export const Empty = z.object({});

export const Message = z.object({ message: z.string() });

/** A chat message's text: not blank, at most CHAT_MESSAGE_MAX_CHARS. */
export const messageText = () => requiredText(VALIDATION_TEXTS.empty, CHAT_MESSAGE_MAX_CHARS, 'lines');

/**
 * The sender's display name as the spec's payloads carry it. Optional and only informative: the
 * server records the signed-in user's own name, so nobody can write as someone else.
 */
export const senderName = () => optionalText(NAME_MAX_CHARS);

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
