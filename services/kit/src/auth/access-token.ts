import { USER_TYPES, type UserType } from '@uis/proto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';

/** What an access token says about its holder (the server trusts it until it expires or is revoked). */
export interface AuthUser {
  id: string;
  /** Lower-cased when the token is signed, so no service compares e-mails by hand. */
  email: string;
  /** The display name: services stamp records with it without asking auth. */
  name: string;
  type: UserType;
  /**
   * The login (sign-in) this token belongs to: auth's refresh-token family. Revoking it (logout,
   * a replayed refresh token) ends every token of that login at once (kit's Revocations).
   */
  loginId: string;
}

/** A token that verified: its holder, when it was issued and when it stops being valid. */
export interface VerifiedAccess {
  user: AuthUser;
  /** Epoch milliseconds: a user revocation refuses the tokens issued before it. */
  issuedAt: number;
  /** Epoch milliseconds. A live connection opened with this token ends then unless it is renewed. */
  expiresAt: number;
}

const Claims = z.object({
  sub: z.string(),
  email: z.string(),
  name: z.string(),
  type: z.enum(USER_TYPES),
  sid: z.string().min(1),
  iat: z.number(),
  exp: z.number(),
});

const ISSUER = 'uis-auth';
const ALGORITHM = 'HS256';

export function signAccessToken(secret: string, user: AuthUser, ttlSeconds: number): string {
  return jwt.sign(
    {
      email: user.email.toLowerCase(),
      name: user.name,
      type: user.type,
      sid: user.loginId,
      // A NumericDate may have a fraction (RFC 7519): to the millisecond, so a user revocation tells
      // a token issued just before it from the one a refresh issues just after.
      iat: Date.now() / 1000,
    },
    secret,
    { subject: user.id, expiresIn: ttlSeconds, issuer: ISSUER, algorithm: ALGORITHM },
  );
}

/** The token's holder and expiry, or null for anything not signed by us, expired or malformed. */
export function verifyAccessToken(secret: string, token: string): VerifiedAccess | null {
  try {
    const payload = jwt.verify(token, secret, { issuer: ISSUER, algorithms: [ALGORITHM] });
    const claims = Claims.safeParse(payload);
    if (!claims.success) return null;
    const { sub, email, name, type, sid, iat, exp } = claims.data;
    return {
      user: { id: sub, email, name, type, loginId: sid },
      issuedAt: iat * 1000,
      expiresAt: exp * 1000,
    };
  } catch {
    return null;
  }
}
