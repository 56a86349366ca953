/** The participant's sessions screen's own English texts (its route's chunk carries this module). */
export const PARTICIPANT_SESSIONS_TEXTS = {
  heading: 'Your sessions',
  noSessions: 'No sessions yet.',
  howSessionsAppear: 'A session appears here when a researcher includes you.',
} as const;

export const WITHDRAW_TEXTS = {
  button: 'Withdraw',
  confirm: 'Withdraw and delete my data',
  message:
    'Your chat messages, reactions and clicks in this session will be deleted, and you will leave it. Your other sessions are not affected. The researcher will see that you withdrew and how many of your records were deleted.',
  failed: 'Error withdrawing from the session',
} as const;
