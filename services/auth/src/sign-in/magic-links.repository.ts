import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, type EntityManager, type Repository } from 'typeorm';
import { MagicLinkEntity } from './magic-link.entity';

/** The magic_links table: every statement auth sends about sign-in links. */
@Injectable()
export class MagicLinksRepository {
  constructor(@InjectRepository(MagicLinkEntity) private readonly links: Repository<MagicLinkEntity>) {}

  create(
    link: Pick<MagicLinkEntity, 'email' | 'tokenHash' | 'expiresAt' | 'identityIssuer' | 'identitySubject'>,
  ): Promise<MagicLinkEntity> {
    return this.links.save({ ...link, usedAt: null });
  }

  /** The unused, unexpired link of this e-mail with this token hash. */
  findUsable(
    email: string,
    tokenHash: string,
    db: EntityManager = this.links.manager,
  ): Promise<MagicLinkEntity | null> {
    return db.findOneBy(MagicLinkEntity, {
      email,
      tokenHash,
      usedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
  }

  /** The unused, unexpired link with this token hash, whatever its e-mail. */
  findUsableByHash(tokenHash: string): Promise<MagicLinkEntity | null> {
    return this.links.findOneBy({ tokenHash, usedAt: IsNull(), expiresAt: MoreThan(new Date()) });
  }

  /** Marks the link used; false when a concurrent request used it first. */
  async markUsed(id: string, db: EntityManager = this.links.manager): Promise<boolean> {
    const result = await db.update(MagicLinkEntity, { id, usedAt: IsNull() }, { usedAt: new Date() });
    return result.affected === 1;
  }

  async deleteOfEmail(email: string, tx: EntityManager): Promise<void> {
    await tx.delete(MagicLinkEntity, { email });
  }
}
