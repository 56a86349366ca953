import { Inject, Injectable } from '@nestjs/common';
import {
  InternalClient,
  LOGGER,
  Revocations,
  forbidden,
  unauthenticated,
  type AuthUser,
  type Logger,
} from '@uis/kit';
import { USER_DATA_OWNERS, userDataDeleteRoute, type UserDataOwner } from '@uis/proto';
import { Transactions } from '../database/transactions';
import { ProviderIdentitiesRepository } from '../oidc/provider-identities.repository';
import { MagicLinksRepository } from '../sign-in/magic-links.repository';
import { RefreshTokensRepository } from '../tokens/refresh-tokens.repository';
import { ACCOUNT_GONE_TEXT, UsersRepository } from '../users/users.repository';

/** Which services hold a user's data; proto's list, replaceable in tests. */
export const USER_DATA_OWNER_LIST = Symbol('USER_DATA_OWNER_LIST');
export const userDataOwnersProvider = { provide: USER_DATA_OWNER_LIST, useValue: USER_DATA_OWNERS };

/**
 * Deleting an account: first every service that holds the user's data deletes it (their groups,
 * sessions and records), then the account, its tokens and its links to providers' accounts go. If
 * a service fails, nothing of the account is deleted and the user can simply try again; each
 * service's delete is idempotent.
 */
@Injectable()
export class AccountDeletionService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UsersRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly magicLinks: MagicLinksRepository,
    private readonly identities: ProviderIdentitiesRepository,
    private readonly internal: InternalClient,
    @Inject(USER_DATA_OWNER_LIST) private readonly owners: readonly UserDataOwner[],
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly revocations: Revocations,
  ) {}

  async deleteOwnAccount(caller: AuthUser, email: string): Promise<void> {
    if (email !== caller.email) throw forbidden('You can only delete your own account.');
    const user = await this.users.findById(caller.id);
    if (!user) throw unauthenticated(ACCOUNT_GONE_TEXT);

    // First every token the user holds is refused (and their live connections end), so nothing
    // can add data while it is being deleted; if the deletion then fails, signing in again works.
    await this.revocations.revoke({ kind: 'user', id: user.id, issuedBefore: Date.now() });
    for (const service of this.owners) {
      await this.internal.call(userDataDeleteRoute(service), { userId: user.id, email: user.email });
    }
    await this.transactions.run(async (tx) => {
      await this.refreshTokens.deleteOfUser(user.id, tx);
      await this.magicLinks.deleteOfEmail(user.email, tx);
      await this.identities.deleteOfUser(user.id, tx);
      await this.users.delete(tx, user.id);
    });
    this.logger.info({ userId: user.id, services: this.owners }, 'account deleted');
  }
}
