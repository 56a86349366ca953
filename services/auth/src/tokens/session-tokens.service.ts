import { Inject, Injectable } from '@nestjs/common';
import {
  JWT_SECRET,
  LOGGER,
  Revocations,
  SESSION_ENDED_TEXT,
  signAccessToken,
  unauthenticated,
  type Logger,
} from '@uis/kit';
import type { TokenPair } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { hashToken, newSecretToken } from '../secret-token';
import type { UserEntity } from '../users/user.entity';
import { RefreshTokensRepository } from './refresh-tokens.repository';

/** Access tokens (short-lived JWTs) and refresh tokens (random, hashed, rotated, revocable). */
@Injectable()
export class SessionTokensService {
  constructor(
    private readonly refreshTokens: RefreshTokensRepository,
    @Inject(JWT_SECRET) private readonly jwtSecret: string,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly revocations: Revocations,
  ) {}

  /** A new login: a new refresh-token family. */
  async signIn(user: UserEntity, db?: EntityManager): Promise<TokenPair> {
    return this.issue(user, randomUUID(), db);
  }

  /**
   * Trades a refresh token for a new pair. A token that was already rotated (or revoked) means it
   * leaked or was replayed: the whole family is revoked, so the thief's copy dies too.
   */
  async rotate(
    refreshToken: string,
    loadUser: (id: string) => Promise<UserEntity | null>,
  ): Promise<TokenPair> {
    const row = await this.refreshTokens.findByHash(hashToken(refreshToken));
    if (!row || row.expiresAt <= new Date()) throw unauthenticated(SESSION_ENDED_TEXT);
    if (row.rotatedAt || row.revokedAt) {
      await this.revokeFamily(row.familyId);
      this.logger.warn({ userId: row.userId, familyId: row.familyId }, 'refresh token reused: login revoked');
      throw unauthenticated(SESSION_ENDED_TEXT);
    }
    // Only one of two concurrent rotations of the same token can win this update.
    if (!(await this.refreshTokens.claim(row.id))) {
      await this.revokeFamily(row.familyId);
      throw unauthenticated(SESSION_ENDED_TEXT);
    }
    const user = await loadUser(row.userId);
    if (!user) throw unauthenticated(SESSION_ENDED_TEXT);
    return this.issue(user, row.familyId);
  }

  /** Logout: the presented token's whole login ends. Unknown tokens are ignored. */
  async revoke(refreshToken: string): Promise<void> {
    const row = await this.refreshTokens.findByHash(hashToken(refreshToken));
    if (row) await this.revokeFamily(row.familyId);
  }

  /**
   * Ends a login: its access tokens are refused everywhere at once (and its live connections end),
   * then its refresh tokens. The revocation goes first, so a failure leaves the login whole to retry.
   */
  private async revokeFamily(familyId: string): Promise<void> {
    await this.revocations.revoke({ kind: 'login', id: familyId });
    await this.refreshTokens.revokeFamily(familyId);
  }

  private async issue(user: UserEntity, familyId: string, db?: EntityManager): Promise<TokenPair> {
    const refreshToken = newSecretToken();
    await this.refreshTokens.add(
      {
        familyId,
        userId: user.id,
        tokenHash: hashToken(refreshToken),
        expiresAt: new Date(Date.now() + this.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000),
      },
      db,
    );
    // The login id is the family: every access token of one sign-in can be revoked together.
    const accessToken = signAccessToken(
      this.jwtSecret,
      { id: user.id, email: user.email, name: user.name, type: user.type, loginId: familyId },
      this.config.ACCESS_TOKEN_TTL_SECONDS,
    );
    return { accessToken, refreshToken };
  }
}
