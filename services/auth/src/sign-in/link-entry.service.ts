import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  AppError,
  CombinedLimiter,
  InternalClient,
  PG_ERRORS,
  pgErrorCode,
  tooManyRequests,
  minutesUntil,
} from '@uis/kit';
import {
  ERROR_CODES,
  PANEL_PARTICIPANT_ID_KEYS,
  PARTICIPANT,
  PSEUDONYMOUS_EMAIL_DOMAIN,
  internalRoutes,
  type PanelIds,
  type TokenPair,
} from '@uis/proto';
import { createHash, randomBytes } from 'node:crypto';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { Transactions } from '../database/transactions';
import { SessionTokensService } from '../tokens/session-tokens.service';
import { UsersRepository } from '../users/users.repository';
import { clientKey } from './limit-keys';

export const LINK_ENTRY_TEXTS = {
  ended: 'This session has ended.',
  tooMany: (wait: string) =>
    `Too many people entered from this network just now. Please try again in ${wait}.`,
} as const;

/** Entries one client address may make per 10 minutes: a whole class behind one campus address. */
export const LINK_ENTRIES_PER_ADDRESS = 300;

/** A pseudonymous participant: their address (never mailed) and the name others see. */
interface Pseudonym {
  email: string;
  name: string;
}

/**
 * The participant a panel id names, for one researcher: the same id through any of their links is
 * the same participant (they return to the same account, in any browser, with the link); across
 * researchers it is not linkable. A hash, not a secret: the address is a pseudonym, never a key.
 */
function panelPseudonym(ownerId: string, key: string, value: string): Pseudonym {
  const digest = createHash('sha256').update(`${ownerId}\n${key}\n${value}`).digest('base64url');
  return pseudonym(
    digest
      .slice(0, 32)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x'),
  );
}

/** A participant of their own, for a link that names nobody: known again only by this browser's cookies. */
const freshPseudonym = (): Pseudonym => pseudonym(randomBytes(16).toString('hex'));

const pseudonym = (local: string): Pseudonym => ({
  email: `p-${local}@${PSEUDONYMOUS_EMAIL_DOMAIN}`,
  name: `Participant ${local.slice(0, 4).toUpperCase()}`,
});

/**
 * A participant enters through a session's join link without an e-mail: no magic link, no user
 * type to choose. Studies vouches for the link first (unknown: 404; ended: 409), so nobody gets an
 * account from a token that lets them in nowhere; then the participant the link's panel id names
 * (PANEL_PARTICIPANT_ID_KEYS, in order), or a new one, is signed in. The page then joins the
 * session with the same token as anyone signed in does.
 */
@Injectable()
export class LinkEntryService implements OnApplicationShutdown {
  private readonly limiter: CombinedLimiter<string>;

  constructor(
    private readonly internal: InternalClient,
    private readonly transactions: Transactions,
    private readonly users: UsersRepository,
    private readonly tokens: SessionTokensService,
    @Inject(AUTH_CONFIG) config: AuthConfig,
  ) {
    this.limiter = new CombinedLimiter(
      [
        {
          name: 'address',
          points: LINK_ENTRIES_PER_ADDRESS,
          durationSeconds: 600,
          key: (address) => address,
        },
      ],
      { keyPrefix: `${config.QUEUE_PREFIX}:link-entry`, redisUrl: config.REDIS_URL },
    );
  }

  async enter(token: string, panelIds: PanelIds, address: string): Promise<TokenPair> {
    const refused = await this.limiter.consume(clientKey(address));
    if (refused) throw tooManyRequests(LINK_ENTRY_TEXTS.tooMany(minutesUntil(refused)));
    const { ownerId, state } = await this.internal.call(internalRoutes.studiesJoinLinkOwner, { token });
    if (state === 'ended') throw new AppError(409, ERROR_CODES.SESSION_ENDED, LINK_ENTRY_TEXTS.ended);
    const key = PANEL_PARTICIPANT_ID_KEYS.find((name) => panelIds[name]?.trim());
    const who = key ? panelPseudonym(ownerId, key, panelIds[key]!.trim()) : freshPseudonym();
    return this.signIn(who);
  }

  onApplicationShutdown(): void {
    this.limiter.close();
  }

  /** The pseudonym's account, made on its first entry (two entries at once: one makes it). */
  private async signIn(who: Pseudonym, retried = false): Promise<TokenPair> {
    try {
      return await this.transactions.run(async (tx) => {
        const user =
          (await this.users.findByEmail(who.email, tx)) ??
          (await this.users.create(tx, { ...who, type: PARTICIPANT }));
        return this.tokens.signIn(user, tx);
      });
    } catch (error) {
      if (!retried && pgErrorCode(error) === PG_ERRORS.uniqueViolation) return this.signIn(who, true);
      throw error;
    }
  }
}
