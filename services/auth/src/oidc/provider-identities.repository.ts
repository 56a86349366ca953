import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { IdentityEntity } from './identity.entity';
import type { ProviderIdentity } from './oidc-claims';

/** The provider_identities table: which user each provider account signs in as. */
@Injectable()
export class ProviderIdentitiesRepository {
  constructor(@InjectRepository(IdentityEntity) private readonly identities: Repository<IdentityEntity>) {}

  /** The user this provider account was linked to, whatever e-mail the provider sends now. */
  async userIdOf({ issuer, subject }: ProviderIdentity): Promise<string | null> {
    const identity = await this.identities.findOneBy({ issuer, subject });
    return identity?.userId ?? null;
  }

  /** Links a provider account to a user; one linked already (to whomever) stays as it is. */
  async link(db: EntityManager, { issuer, subject }: ProviderIdentity, userId: string): Promise<void> {
    await db
      .createQueryBuilder()
      .insert()
      .into(IdentityEntity)
      .values({ issuer, subject, userId })
      .orIgnore()
      .execute();
  }

  async deleteOfUser(userId: string, tx: EntityManager): Promise<void> {
    await tx.delete(IdentityEntity, { userId });
  }
}
