// Server-side only (not in browser.ts): the login route's bundle has no room to spare.

/**
 * The join-link query parameters that name the participant on a recruitment panel (Prolific's
 * PROLIFIC_PID, MTurk's workerId, a generic PARTICIPANT_ID), in the order one is chosen: a
 * participant who enters through a link without an e-mail is that id (see PSEUDONYMOUS_EMAIL_DOMAIN).
 * STUDY_ID and SESSION_ID name the study and the attempt, not the person.
 */
export const PANEL_PARTICIPANT_ID_KEYS = ['PROLIFIC_PID', 'PARTICIPANT_ID', 'workerId'] as const;
/**
 * The e-mail domain of participants who entered through a join link without an e-mail: a reserved
 * name (RFC 2606) that can never receive mail. Their address is a pseudonym, never shown as theirs.
 */
export const PSEUDONYMOUS_EMAIL_DOMAIN = 'participant.invalid';
export const isPseudonymousEmail = (email: string): boolean =>
  email.toLowerCase().endsWith(`@${PSEUDONYMOUS_EMAIL_DOMAIN}`);
