import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** What a sign-in with a provider must find again when the browser comes back: kept in a cookie. */
export interface PendingSignIn {
  provider: string;
  state: string;
  nonce: string;
  /** The PKCE code verifier (its S256 challenge went to the provider). */
  verifier: string;
  /** Epoch ms: after this the sign-in is refused (the cookie also expires). */
  expiresAt: number;
}

/**
 * Seals a pending sign-in into a cookie value and opens it again: base64url JSON and its HMAC-SHA256
 * under a key derived from the service's JWT secret for this purpose only. Signed, not encrypted:
 * nothing in it is worth anything without this browser's session at the provider, and the cookie is
 * HttpOnly; what matters is that nobody can make one up (a state and verifier of their choice).
 */
export class PendingSignInSeal {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'uis-oidc', 'pending sign-in cookie', 32));
  }

  seal(pending: PendingSignIn): string {
    const body = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The pending sign-in, or null when the value was not sealed here, was changed, or has expired. */
  open(value: string | undefined, now = Date.now()): PendingSignIn | null {
    const [body, mac, extra] = (value ?? '').split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const pending = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PendingSignIn;
      return typeof pending.expiresAt === 'number' && pending.expiresAt > now ? pending : null;
    } catch {
      return null;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
