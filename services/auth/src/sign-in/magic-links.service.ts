import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { MailQueue } from '@uis/mailer';
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

  /** Mails a link to any address: whether it has an account is decided only when the link is used. */
  async send(email: string, clientAddress: string): Promise<void> {
    await this.limiter.consume(email, clientAddress);
    const token = newSecretToken();
    const ttlMinutes = this.config.MAGIC_LINK_TTL_MINUTES;
    const link = await this.links.save({
      email,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttlMinutes * 60_000),
      usedAt: null,
    });
    const url = `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/authcallback?${new URLSearchParams({ email, token }).toString()}`;
    await this.mail.enqueue({
      kind: 'magic-link',
      requestId: link.id,
      to: email,
      link: url,
      expiresInMinutes: ttlMinutes,
    });
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
