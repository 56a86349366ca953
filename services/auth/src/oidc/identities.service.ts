import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { UserEntity } from '../users/user.entity';
import { IdentityEntity } from './identity.entity';
import type { ProviderIdentity } from './oidc-claims';

/** Which user each provider account signs in as (provider_identities). */
@Injectable()
export class IdentitiesService {
  constructor(@InjectRepository(IdentityEntity) private readonly identities: Repository<IdentityEntity>) {}

  /** The user this provider account was linked to, whatever e-mail the provider sends now. */
  async userOf({ issuer, subject }: ProviderIdentity): Promise<UserEntity | null> {
    const identity = await this.identities.findOneBy({ issuer, subject });
    return identity && this.identities.manager.findOneBy(UserEntity, { id: identity.userId });
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
}
