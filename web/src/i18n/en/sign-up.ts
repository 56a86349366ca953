/** The sign-up screens' own English texts (the signup route's chunk carries this module). */
export const SIGN_UP_TEXTS = {
  haveAccount: 'Already have an account?',
} as const;
