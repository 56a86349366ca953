/** The account bar's own English texts (the signed-in screens' layout carries this module). */
export const ACCOUNT_TEXTS = {
  deleteHeading: 'Delete your account?',
} as const;
