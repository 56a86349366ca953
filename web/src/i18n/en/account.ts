/** The account bar's own English texts (the signed-in screens' layout carries this module). */
export const ACCOUNT_TEXTS = {
  deleteHeading: 'Delete your account?',
  deleteAccount: 'Delete account',
  logOut: 'Log out',
  deleteWarning: 'Your account and everything tied to it are removed for good. This cannot be undone.',
  deleteConfirm: 'Delete my account',
} as const;
