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

export const JOIN_SESSION_TEXTS = {
  heading: JOIN_TEXTS.heading,
  body: 'Its researcher will see your name and e-mail address, the ids this link carries, and what you write, react and click in the session.',
  join: JOIN_TEXTS.join,
  notNow: JOIN_TEXTS.notNow,
} as const;
