/** The sign-in link's landing screen's own English texts (its route's chunk carries this module). */
export const AUTH_CALLBACK_TEXTS = {
  /** Before the address in the warning about a link this browser did not ask for. */
  notAskedFor: 'This sign-in link was not asked for in this browser. Continue only if ',
  /** After the address in that warning. */
  notAskedForEnd: " is your address: someone else's link would sign you into their account.",
  notYou: 'Not you? Sign in with your own e-mail',
} as const;

export const signInAsText = (email: string): string => `Sign in as ${email}?`;

export const continueAsText = (email: string): string => `Continue as ${email}`;
