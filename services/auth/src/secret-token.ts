import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: used for magic links and refresh tokens. */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps instead of the token. Tokens are high-entropy, so a fast hash is enough. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
