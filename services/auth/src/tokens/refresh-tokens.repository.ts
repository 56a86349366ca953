import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type EntityManager, type Repository } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';

/** The refresh_tokens table: every statement auth sends about refresh tokens. */
@Injectable()
export class RefreshTokensRepository {
  constructor(
    @InjectRepository(RefreshTokenEntity) private readonly tokens: Repository<RefreshTokenEntity>,
  ) {}

  findByHash(tokenHash: string): Promise<RefreshTokenEntity | null> {
    return this.tokens.findOneBy({ tokenHash });
  }

  async add(
    token: Pick<RefreshTokenEntity, 'familyId' | 'userId' | 'tokenHash' | 'expiresAt'>,
    db: EntityManager = this.tokens.manager,
  ): Promise<void> {
    await db.insert(RefreshTokenEntity, token);
  }

  /** Marks the token rotated unless it was rotated or revoked already; false then (the other won). */
  async claim(id: string): Promise<boolean> {
    const claimed = await this.tokens.update(
      { id, rotatedAt: IsNull(), revokedAt: IsNull() },
      { rotatedAt: new Date() },
    );
    return claimed.affected === 1;
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.tokens.update({ familyId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  async deleteOfUser(userId: string, tx: EntityManager): Promise<void> {
    await tx.delete(RefreshTokenEntity, { userId });
  }
}
