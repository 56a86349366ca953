import { forbidden, type AuthUser } from '@uis/kit';

/**
 * The spec's calls carry the caller's e-mail; the server acts for the signed-in user only, so an
 * e-mail that is someone else's is refused rather than silently ignored.
 */
export function requireOwnEmail(caller: AuthUser, email: string | undefined, message: string): void {
  if (email !== undefined && email !== caller.email) throw forbidden(message);
}
