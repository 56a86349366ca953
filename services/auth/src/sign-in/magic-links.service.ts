import { Inject, Injectable } from '@nestjs/common';
import type { MailQueue } from '@uis/mailer';
import { badRequest } from '@uis/kit';
import { INVITATION_TTL_HOURS, isPseudonymousEmail, liveSessionPathOf } from '@uis/proto';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import type { ProviderIdentity } from '../oidc/oidc-claims';
import { hashToken, newSecretToken } from '../secret-token';
import type { MagicLinkEntity } from './magic-link.entity';
import { MagicLinksRepository } from './magic-links.repository';
import { SignInLimiter } from './sign-in-limiter';

export const MAIL_QUEUE = Symbol('MAIL_QUEUE');

export const NO_MAILBOX = 'destination: this address receives no mail; sign in with your own e-mail address.';

/** Single-use sign-in links: issued and mailed here, checked and consumed by the sign-in flow. */
@Injectable()
export class MagicLinksService {
  constructor(
    private readonly links: MagicLinksRepository,
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
    private readonly limiter: SignInLimiter,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * Mails a link to any address: whether it has an account is decided only when the link is used.
   * `next`: the app's path the link opens after signing in.
   */
  async send(email: string, clientAddress: string, next?: string): Promise<void> {
    await this.sendLink(email, clientAddress, (token) => this.appLink(email, token, next));
  }

  /**
   * Mails a sign-in link whose URL `urlOf` makes from its token: the app's, or for an address a
   * provider gave but is not trusted for, the provider callback's. Limited as any sign-in link.
   */
  async sendLink(email: string, clientAddress: string, urlOf: (token: string) => URL): Promise<void> {
    // A pseudonym of a participant who entered through a join link: no mailbox, and no way in by mail.
    if (isPseudonymousEmail(email)) throw badRequest(NO_MAILBOX);
    await this.limiter.consume(email, clientAddress);
    const ttlMinutes = this.config.MAGIC_LINK_TTL_MINUTES;
    const { id, token } = await this.issue(email, ttlMinutes);
    const url = urlOf(token);
    await this.mail.enqueue({
      kind: 'magic-link',
      requestId: id,
      to: email,
      link: url.toString(),
      expiresInMinutes: ttlMinutes,
    });
  }

  /**
   * Mails an invitation to a session: a link like a magic link (once, for this e-mail only) that
   * waits INVITATION_TTL_HOURS and opens the session. Its limits are the invitations' own (per
   * session and address, per session), checked by the caller.
   */
  async invite(
    email: string,
    sessionId: string,
    sessionTitle: string,
    researcherName: string,
  ): Promise<void> {
    const { id, token } = await this.issue(email, INVITATION_TTL_HOURS * 60);
    const url = this.appLink(email, token, liveSessionPathOf(sessionId));
    await this.mail.enqueue({
      kind: 'invitation',
      requestId: id,
      to: email,
      link: url.toString(),
      sessionTitle,
      researcherName,
      expiresInDays: INVITATION_TTL_HOURS / 24,
    });
  }

  /**
   * A link for an e-mail that was proven another way (by a provider trusted for it, or a mailed
   * link this browser followed): not mailed, so no mail limit applies; the caller sends the browser
   * to it. `identity`: the provider account its use links to the user.
   */
  async mint(email: string, identity?: ProviderIdentity): Promise<URL> {
    const { token } = await this.issue(email, this.config.MAGIC_LINK_TTL_MINUTES, identity);
    return this.appLink(email, token);
  }

  /** A new single-use token of this e-mail (only its hash is kept). */
  private async issue(
    email: string,
    ttlMinutes: number,
    identity?: ProviderIdentity,
  ): Promise<{ id: string; token: string }> {
    const token = newSecretToken();
    const link = await this.links.create({
      email,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttlMinutes * 60_000),
      identityIssuer: identity?.issuer ?? null,
      identitySubject: identity?.subject ?? null,
    });
    return { id: link.id, token };
  }

  /** The app's /authcallback with the e-mail, the token and where to go on: what signs in. */
  appLink(email: string, token: string, next?: string): URL {
    const url = new URL(`${this.config.PUBLIC_URL.replace(/\/+$/, '')}/authcallback`);
    url.search = new URLSearchParams({ email, token, ...(next ? { next } : {}) }).toString();
    return url;
  }

  /** The unused, unexpired link of this e-mail with this token, without using it up. */
  findUsable(email: string, token: string, db?: EntityManager): Promise<MagicLinkEntity | null> {
    return this.links.findUsable(email, hashToken(token), db);
  }

  /** The unused, unexpired link with this token, whatever its e-mail (a token is unique). */
  findUsableByToken(token: string): Promise<MagicLinkEntity | null> {
    return this.links.findUsableByHash(hashToken(token));
  }

  /** Uses the link up; false when a concurrent request used it first. */
  consume(link: MagicLinkEntity, db?: EntityManager): Promise<boolean> {
    return this.links.markUsed(link.id, db);
  }
}
