import { z } from 'zod';
import { VALIDATION_TEXTS } from './constants';

export { VALIDATION_TEXTS } from './constants';

export const SPEC_TEXTS: ReadonlySet<string> = new Set(Object.values(VALIDATION_TEXTS));

/** Text that must be present and not blank; `emptyMessage` is used for both missing and blank. */
export const requiredText = (emptyMessage: string = VALIDATION_TEXTS.empty, max = 10_000) =>
  z
    .string({ error: (iss) => (iss.input == null ? emptyMessage : 'must be text') })
    .trim()
    .min(1, emptyMessage)
    .max(max, `must be at most ${max} characters`);

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

export const Empty = z.object({});

export const Message = z.object({ message: z.string() });
