import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { SessionTokensService } from './session-tokens.service';

/** Access tokens and rotated, revocable refresh tokens. */
@Module({
  imports: [TypeOrmModule.forFeature([RefreshTokenEntity])],
  providers: [RefreshTokensRepository, SessionTokensService],
  exports: [RefreshTokensRepository, SessionTokensService],
})
export class TokensModule {}
