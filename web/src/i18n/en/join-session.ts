/** The join link's screen's own English texts (the join route's chunk carries this module). */
export const JOIN_SESSION_PAGE_TEXTS = {
  backToDashboard: 'Back to the dashboard',
  joining: 'Joining the session…',
  notJoined: 'You could not join this session',
  tryAgain: 'Try again',
} as const;
