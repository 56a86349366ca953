import type { AuthUser } from '@uis/kit';

/**
 * Who wrote a record. Kept with the record (the export shows it to the session's owner) but never in
 * an answer to a REST or internal listing.
 */
export interface RecordAuthor {
  userId: string;
  name: string;
  email: string;
}

/** The signed-in caller as an author: their own name from the access token, never the payload's. */
export const authorOf = (user: AuthUser): RecordAuthor => ({
  userId: user.id,
  name: user.name,
  email: user.email,
});
