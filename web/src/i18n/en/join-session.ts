import { JOIN_TEXTS } from './common';

/** The join link's screen's own English texts (the join route's chunk carries this module). */
export const JOIN_SESSION_PAGE_TEXTS = {
  backToDashboard: 'Back to the dashboard',
  joining: 'Joining the session…',
  notJoined: 'You could not join this session',
  tryAgain: 'Try again',
  unexpected: 'Something went wrong while joining. Please try again.',
  ended:
    'This session has ended: it takes nobody in any more. Please return to where you found its link (your study panel or the message that brought you here).',
} as const;

/** The landing page of a join link for someone not signed in: what happens, then Start. */
export const JOIN_LANDING_TEXTS = {
  loading: 'Loading the study…',
  noLink: 'This link does not lead to a study any more: it was mistyped, or the researcher replaced it.',
  whatHappens: 'What will happen',
  before:
    'First you read what the study is about and agree to take part (or not), then your browser is checked for sound and picture, and the session begins.',
  privacy:
    'You do not need an e-mail address or an account. The researcher sees the id your study panel put in this link (if any) and what you write, react and click; the other participants see only a name like “Participant 7K3Q”.',
  start: 'Start',
  starting: 'Starting…',
  notStarted: 'You could not start',
  haveAccount: 'Invited by e-mail, or have an account? Sign in instead',
} as const;

/** What a session of each type asks of its participants. */
export const WHAT_HAPPENS_BY_TYPE = {
  video:
    'You will watch a video together with other participants, live, and may chat and react while it plays.',
  stream:
    'You will watch a live stream together with other participants and may chat and react while it plays.',
  chat: 'You will take part in a live conversation, with a video call and a chat, with the researcher and other participants.',
} as const;

export const JOIN_SESSION_TEXTS = {
  heading: JOIN_TEXTS.heading,
  body: 'Its researcher will see your name and e-mail address, the ids this link carries, and what you write, react and click in the session.',
  join: JOIN_TEXTS.join,
  notNow: JOIN_TEXTS.notNow,
} as const;
