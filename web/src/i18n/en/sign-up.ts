import type { UserType } from '@uis/proto';

/** The sign-up screens' own English texts (the signup route's chunk carries this module). */
export const SIGN_UP_TEXTS = {
  haveAccount: 'Already have an account?',
  finishing: 'Finishing your sign-up...',
  /** Before the chosen account type. */
  signingUpAs: 'Signing up as ',
  change: 'Change',
  emailConfirmed: 'Your e-mail is confirmed by the sign-in link. Choose a name to finish.',
  howItWorks:
    'We will e-mail you a link to confirm your address. Open it in this browser to finish signing up.',
  checkEmail: 'Check your e-mail',
  /** Before the address the link went to (the first link, then another). */
  sentLink: 'We sent a link to ',
  sentAnotherLink: 'We sent another link to ',
  /** After that address. */
  sentLinkEnd: ': open it in this browser to finish signing up.',
  sentHint:
    'Nothing after a few minutes? Look in your spam folder, or send it again. The link works once and for a short time.',
  sendAgain: 'Send it again',
  differentEmail: 'Use a different e-mail',
  name: 'Name',
} as const;

/** The account types, and what each is for, on the first step of sign-up. */
export const USER_TYPE_LABELS: Record<UserType, string> = {
  researcher: 'Researcher',
  participant: 'Participant',
};

export const USER_TYPE_DETAILS: Record<UserType, string> = {
  researcher: 'Create groups and sessions, run them and review what was recorded.',
  participant: 'Join the sessions a researcher invites you to.',
};
