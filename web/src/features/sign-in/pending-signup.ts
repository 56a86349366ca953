import { MAGIC_LINK_TTL_MINUTES, USER_TYPES, type UserType } from '@uis/proto/browser';

/**
 * A sign-up started on /signup without a magic link: the e-mail, name and type chosen before the
 * confirming link was mailed. When that link opens in this browser (a mail client opens it in a new
 * tab) and its callback ends on /signup for the same e-mail, the sign-up completes with these. Kept
 * in localStorage for as long as the link is valid; the token never is here, it stays in the link.
 */
export interface PendingSignup {
  email: string;
  name: string;
  type: UserType;
}

const KEY = 'uis.pendingSignup';
/** Forgotten with the link it waits for. */
const KEEP_MS = MAGIC_LINK_TTL_MINUTES * 60_000;

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const isPendingSignup = (value: unknown): value is PendingSignup => {
  if (typeof value !== 'object' || value === null) return false;
  const { email, name, type } = value as Record<string, unknown>;
  return (
    typeof email === 'string' &&
    email.trim() !== '' &&
    typeof name === 'string' &&
    name.trim() !== '' &&
    USER_TYPES.includes(type as UserType)
  );
};

// Storage can be off or full (private modes, policies): then nothing is pending, and the link's
// sign-up screen asks for the type and name again instead of completing by itself.
export function savePendingSignup(pending: PendingSignup): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...pending, until: Date.now() + KEEP_MS }));
  } catch {
    /* see above */
  }
}

/** The pending sign-up of this e-mail, if this browser started one within the link's lifetime. */
export function pendingSignupFor(email: string): PendingSignup | null {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    const current =
      typeof (stored as { until?: unknown })?.until === 'number' &&
      (stored as { until: number }).until > Date.now();
    if (!current || !isPendingSignup(stored) || !sameEmail(stored.email, email)) return null;
    const { email: pendingEmail, name, type } = stored;
    return { email: pendingEmail, name, type };
  } catch {
    return null;
  }
}

export function clearPendingSignup(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* see savePendingSignup */
  }
}
