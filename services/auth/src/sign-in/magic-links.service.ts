import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { MailQueue } from '@uis/mailer';
import { INVITATION_TTL_HOURS, liveSessionPathOf } from '@uis/proto';
import { IsNull, MoreThan, type EntityManager, type Repository } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { hashToken, newSecretToken } from '../secret-token';
import { MagicLinkEntity } from './magic-link.entity';
import { SignInLimiter } from './sign-in-limiter';

export const MAIL_QUEUE = Symbol('MAIL_QUEUE');

/** Single-use sign-in links: issued and mailed here, checked and consumed by the sign-in flow. */
@Injectable()
export class MagicLinksService {
  constructor(
    @InjectRepository(MagicLinkEntity) private readonly links: Repository<MagicLinkEntity>,
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
    private readonly limiter: SignInLimiter,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * Mails a link to any address: whether it has an account is decided only when the link is used.
   * `next`: the app's path the link opens after signing in.
   */
  async send(email: string, clientAddress: string, next?: string): Promise<void> {
    await this.limiter.consume(email, clientAddress);
    const ttlMinutes = this.config.MAGIC_LINK_TTL_MINUTES;
    const { id, url } = await this.issue(email, ttlMinutes, next);
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
    const { id, url } = await this.issue(email, INVITATION_TTL_HOURS * 60, liveSessionPathOf(sessionId));
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
   * A link for an e-mail that was proven another way (a provider's verified e-mail): not mailed, so
   * no mail limit applies; the caller sends the browser to it.
   */
  async mint(email: string): Promise<URL> {
    return (await this.issue(email, this.config.MAGIC_LINK_TTL_MINUTES)).url;
  }

  /** A new single-use link of this e-mail: the app's /authcallback with the e-mail, the token and where to go on. */
  private async issue(email: string, ttlMinutes: number, next?: string): Promise<{ id: string; url: URL }> {
    const token = newSecretToken();
    const link = await this.links.save({
      email,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttlMinutes * 60_000),
      usedAt: null,
    });
    const url = new URL(`${this.config.PUBLIC_URL.replace(/\/+$/, '')}/authcallback`);
    url.search = new URLSearchParams({ email, token, ...(next ? { next } : {}) }).toString();
    return { id: link.id, url };
  }

  /** The unused, unexpired link of this e-mail with this token, without using it up. */
  findUsable(
    email: string,
    token: string,
    db: EntityManager = this.links.manager,
  ): Promise<MagicLinkEntity | null> {
    return db.findOneBy(MagicLinkEntity, {
      email,
      tokenHash: hashToken(token),
      usedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
  }

  /** Uses the link up; false when a concurrent request used it first. */
  async consume(link: MagicLinkEntity, db: EntityManager): Promise<boolean> {
    const result = await db.update(
      MagicLinkEntity,
      { id: link.id, usedAt: IsNull() },
      { usedAt: new Date() },
    );
    return result.affected === 1;
  }
}
