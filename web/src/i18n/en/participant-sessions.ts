/** The participant's sessions screen's own English texts (its route's chunk carries this module). */
export const PARTICIPANT_SESSIONS_TEXTS = {
  heading: 'Your sessions',
  noSessions: 'No sessions yet.',
  howSessionsAppear: 'A session appears here when a researcher includes you.',
} as const;
