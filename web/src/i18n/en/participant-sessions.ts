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

/** The withdraw button's name for screen readers, and its dialog's heading. */
export const withdrawFromText = (title: string): string => `${WITHDRAW_TEXTS.button} from ${title}`;
export const withdrawHeadingText = (title: string): string => `Withdraw from “${title}”?`;

export const withdrewText = (title: string, deleted: string): string =>
  `You withdrew from “${title}”: ${deleted} deleted.`;
