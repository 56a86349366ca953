import { MAGIC_LINK_TTL_MINUTES } from '@uis/proto/browser';

/**
 * Login CSRF: a magic link signs in whoever opens it, so someone could mail another person a link
 * of their own account and have them work in it, unaware (their sessions, their uploads). The link's
 * landing signs in at once only when this browser asked for it: the login or sign-up form mailed a
 * link to that address, or a provider's sign-in started here (it comes back through the landing with
 * its e-mail); any other link waits for "Continue as …". Kept in localStorage, not sessionStorage:
 * a mail client opens the link in a new tab. For as long as a link is valid; never a token.
 */

const KEY = 'uis.expectedSignIn';
const KEEP_MS = MAGIC_LINK_TTL_MINUTES * 60_000;

interface Expected {
  /** Addresses a link was asked for, lower-cased, and until when. */
  emails: Record<string, number>;
  /** Until when a provider's sign-in started here is expected back (any address). */
  provider?: number;
}

const keyOf = (email: string) => email.trim().toLowerCase();

function read(): Expected {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    const { emails, provider } = (stored ?? {}) as Partial<Expected>;
    const current = Object.entries(typeof emails === 'object' && emails !== null ? emails : {}).filter(
      ([, until]) => typeof until === 'number' && until > Date.now(),
    );
    return {
      emails: Object.fromEntries(current),
      ...(typeof provider === 'number' && provider > Date.now() ? { provider } : {}),
    };
  } catch {
    return { emails: {} };
  }
}

// Storage can be off or full (private modes, policies): then every link asks "Continue as …".
function write(expected: Expected): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(expected));
  } catch {
    /* see above */
  }
}

/** The login or sign-up form mailed a link to `email`. */
export function expectLinkFor(email: string): void {
  const expected = read();
  write({ ...expected, emails: { ...expected.emails, [keyOf(email)]: Date.now() + KEEP_MS } });
}

/** A provider's sign-in starts here (it leaves the app, and comes back to the landing). */
export function expectProviderSignIn(): void {
  write({ ...read(), provider: Date.now() + KEEP_MS });
}

/** Whether this browser asked for a sign-in as `email` (only read: StrictMode renders twice). */
export function signInExpected(email: string): boolean {
  const expected = read();
  return expected.provider !== undefined || expected.emails[keyOf(email)] !== undefined;
}

/** The landing went on with `email`'s link: that expectation, and a provider's, are spent. */
export function spendExpectedSignIn(email: string): void {
  const { emails } = read();
  delete emails[keyOf(email)];
  write({ emails });
}
