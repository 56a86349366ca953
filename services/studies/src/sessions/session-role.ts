import type { SessionRole } from '@uis/proto';

export interface SessionMembership {
  /** The researcher whose group holds the session. */
  ownerId: string;
  /** Lower-cased e-mails, or null for Everyone. */
  scope: readonly string[] | null;
}

/**
 * What a user is to a session. Researchers are people too: a researcher whose e-mail is in another
 * researcher's scope (or whose scope is Everyone) is a participant there, like anyone else.
 */
export function sessionRole(
  session: SessionMembership,
  /** `email` lower-cased, as the access token's claims and proto's email() give it. */
  user: { id: string; email: string },
): SessionRole {
  if (session.ownerId === user.id) return 'owner';
  if (session.scope === null) return 'participant';
  return session.scope.includes(user.email) ? 'participant' : 'none';
}
