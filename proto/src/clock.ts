import { z } from 'zod';
import { VALIDATION_TEXTS } from './fields';
import { CLOCK_TIME_FORMAT_MESSAGE, parseClockTime } from './clock-text';

export { CLOCK_TIME_FORMAT_MESSAGE, formatClockTime, parseClockTime } from './clock-text';

/** hh:mm:ss text on the wire, whole seconds after parsing. */
export const clockTime = () =>
  z
    .string({ error: (iss) => (iss.input == null ? VALIDATION_TEXTS.empty : 'must be text') })
    .transform((text, ctx) => {
      const seconds = parseClockTime(text);
      if (seconds === null) {
        ctx.addIssue({ code: 'custom', message: CLOCK_TIME_FORMAT_MESSAGE, input: text });
        return z.NEVER;
      }
      return seconds;
    });
