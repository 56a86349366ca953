// Its own module, not constants.ts: the login route's bundle carries everything constants.ts holds
// that any screen uses, and only the live screens use these.

/**
 * Realtime's refusal of a click while clicks are off; the participant's page says it before asking,
 * so both show the same sentence.
 */
export const CLICKS_OFF_TEXT = 'Clicks are not allowed right now: the researcher has not enabled them.';
