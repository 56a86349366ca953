/**
 * The login and sign-up screens' own English texts, each written once. The login route's bundle
 * carries this module: only texts of those screens belong here.
 */
export const SIGN_IN_TEXTS = {
  email: 'Email',
  emailPlaceholder: 'you@example.org',
  enter: 'Enter',
  newHere: 'New here?',
  signUp: 'Sign up',
  signIn: 'Sign in',
  /** Between the e-mail form and the sign-in providers' buttons. */
  or: 'or',
} as const;
