import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** What a sign-in with a provider must find again when the browser comes back: kept in a cookie. */
export interface PendingSignIn {
  /** Absent in cookies sealed before proofs existed. */
  kind?: 'sign-in';
  provider: string;
  state: string;
  nonce: string;
  /** The PKCE code verifier (its S256 challenge went to the provider). */
  verifier: string;
  /** Epoch ms: after this the sign-in is refused (the cookie also expires). */
  expiresAt: number;
}

/**
 * A provider's new account whose e-mail the provider is not trusted for: a link went to that
 * address, and only this browser, following it, links the account (so a stranger who gets the mail
 * and follows it links nothing).
 */
export interface PendingProof {
  kind: 'proof';
  provider: string;
  /** The mailed link's state parameter. */
  state: string;
  issuer: string;
  subject: string;
  email: string;
  name: string;
  expiresAt: number;
}

export type Pending = PendingSignIn | PendingProof;

/**
 * Seals a pending sign-in or proof into a cookie value and opens it again: base64url JSON and its
 * HMAC-SHA256 under a key derived from the service's JWT secret for this purpose only. Signed, not
 * encrypted: nothing in it is worth anything without this browser's session at the provider (or the
 * mailed link), and the cookie is HttpOnly; what matters is that nobody can make one up (a state and
 * verifier, or an account to link, of their choice).
 */
export class PendingSignInSeal {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'uis-oidc', 'pending sign-in cookie', 32));
  }

  seal(pending: Pending): string {
    const body = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** What is pending, or null when the value was not sealed here, was changed, or has expired. */
  open(value: string | undefined, now = Date.now()): Pending | null {
    const [body, mac, extra] = (value ?? '').split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const pending = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Pending;
      return typeof pending.expiresAt === 'number' && pending.expiresAt > now ? pending : null;
    } catch {
      return null;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
