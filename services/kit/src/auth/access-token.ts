import { USER_TYPES, type UserType } from '@uis/proto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';

/** What an access token says about its holder (the server trusts it until it expires). */
export interface AuthUser {
  id: string;
  email: string;
  /** The display name: services stamp records with it without asking auth. */
  name: string;
  type: UserType;
}

const Claims = z.object({ sub: z.string(), email: z.string(), name: z.string(), type: z.enum(USER_TYPES) });

const ISSUER = 'uis-auth';
const ALGORITHM = 'HS256';

export function signAccessToken(secret: string, user: AuthUser, ttlSeconds: number): string {
  return jwt.sign({ email: user.email, name: user.name, type: user.type }, secret, {
    subject: user.id,
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    algorithm: ALGORITHM,
  });
}

/** The token's user, or null for anything not signed by us, expired or malformed. */
export function verifyAccessToken(secret: string, token: string): AuthUser | null {
  try {
    const payload = jwt.verify(token, secret, { issuer: ISSUER, algorithms: [ALGORITHM] });
    const claims = Claims.safeParse(payload);
    return claims.success
      ? { id: claims.data.sub, email: claims.data.email, name: claims.data.name, type: claims.data.type }
      : null;
  } catch {
    return null;
  }
}
