import { randomUUID } from 'node:crypto';
import type { UserType } from '@uis/proto';
import { signAccessToken, verifyAccessToken, type AuthUser } from '../auth/access-token';
import { randomSuffix } from './database';

/** A signed-in person of a test: who they are, their access token and the header that carries it. */
export interface TestPerson {
  user: AuthUser;
  token: string;
  headers: { authorization: string };
}

/** The header that carries an access token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A user as an access token describes them: a new id, login and e-mail each time, unless given; named
 * after their e-mail when only that is given.
 */
export function testUser(type: UserType = 'participant', overrides: Partial<AuthUser> = {}): AuthUser {
  const name =
    overrides.name ?? overrides.email?.split('@')[0] ?? (type === 'researcher' ? 'Rosalind' : 'Pat');
  // A valid address whatever the name holds (tests give names with quotes, tabs or formulas).
  const local =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.+|\.+$/g, '') || 'person';
  return {
    id: randomUUID(),
    email: `${local}-${randomSuffix()}@people.test`,
    name,
    type,
    loginId: randomUUID(),
    ...overrides,
  };
}

/** Signs tokens the services under test trust (their JWT_SECRET), for people of a test. */
export function testPeople(jwtSecret: string) {
  const tokenOf = (user: AuthUser, ttlSeconds = 3600) => signAccessToken(jwtSecret, user, ttlSeconds);
  const asPerson = (user: AuthUser, ttlSeconds?: number): TestPerson => {
    const token = tokenOf(user, ttlSeconds);
    return { user, token, headers: bearer(token) };
  };
  return {
    tokenOf,
    /** A person with a new identity (or the given parts of one) and a token valid for an hour. */
    person: (type: UserType = 'participant', overrides: Partial<AuthUser> = {}): TestPerson =>
      asPerson(testUser(type, overrides)),
    /** A token for someone who already exists in the test (a fresh login of theirs, or expiring soon). */
    asPerson,
  };
}
export type TestPeople = ReturnType<typeof testPeople>;

/** Someone with an account, signed in through auth: a TestPerson and their refresh token. */
export interface SignedUp extends TestPerson {
  refreshToken: string;
}

/** The person a token pair from auth signs in (its access token read with the services' secret). */
export function signedUpOf(jwtSecret: string, pair: { accessToken: string; refreshToken: string }): SignedUp {
  const verified = verifyAccessToken(jwtSecret, pair.accessToken);
  if (!verified) throw new Error('auth answered an access token the services under test do not accept');
  const { user } = verified;
  return {
    user,
    token: pair.accessToken,
    headers: bearer(pair.accessToken),
    refreshToken: pair.refreshToken,
  };
}
