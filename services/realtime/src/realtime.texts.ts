import { CLICKS_OFF_TEXT } from '@uis/proto';
import { SESSION_ACCESS_TEXTS, SESSION_ENDED_TEXT } from '@uis/kit';

/** Every text realtime sends people, defined once (the spec's own texts stay in proto). */
export const REALTIME_TEXTS = {
  // The handshake refuses a connection.
  missingToken: 'Sign in first: the connection carries no access token.',
  badToken: 'Sign in first: the access token is expired or invalid.',
  revoked: SESSION_ENDED_TEXT,
  tooManySockets: (max: number) =>
    `Too many connections: you have ${max} open already. Close another tab or window first.`,
  // An open connection ends or refuses a renewal.
  expired: 'Your sign-in expired: the connection was closed. Sign in again to continue.',
  otherUser: 'A renewed token must be the same person’s.',
  // A live session's rules.
  ownerOnly: SESSION_ACCESS_TEXTS.ownerOnly,
  participantsClick: 'Only participants click the video; the researcher reviews their clicks.',
  clicksOff: CLICKS_OFF_TEXT,
  participantsReportExposure: 'Only participants report what they saw and heard; the researcher reads it.',
  tooManyExposureReports: (seconds: number) =>
    `Too many exposure reports: wait ${seconds} second${seconds === 1 ? '' : 's'} before the next.`,
  // Access to a session ended while connected.
  removed: 'You are no longer part of this session: the researcher changed who takes part.',
  deleted: 'This session was deleted by its researcher.',
  // An event that could not be answered.
  unavailable: 'The live session is unavailable right now; try again in a moment.',
  tooFast: 'Too many events at once: wait for the answers before sending more.',
  crashed: (errorId: string) => `Something went wrong on our side (error id ${errorId}).`,
} as const;
