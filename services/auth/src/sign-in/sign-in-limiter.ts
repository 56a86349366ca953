import { CombinedLimiter, minutesUntil, tooManyRequests, type Logger } from '@uis/kit';
import { clientKey, inboxKey } from './limit-keys';

export interface SignInLimits {
  /** Links one inbox may be sent per `emailWindowSeconds` (no one floods an inbox). */
  perEmail: number;
  emailWindowSeconds: number;
  /** Links one client address may ask for per minute: a class behind one campus address at once. */
  perAddressPerMinute: number;
  /** Links one client address may ask for per hour: past the class, a spray of many inboxes. */
  perAddressPerHour: number;
  redisUrl?: string;
  keyPrefix: string;
}

/** Why a request was refused, for logs and counts (the answer itself never says whose limit). */
export type SignInLimit = 'email' | 'address-minute' | 'address-hour';

interface SignInRequest {
  email: string;
  address: string;
}

/**
 * Caps sign-in mails per inbox and per client address, telling a class from an attack: one inbox
 * gets a few links per window; one address (a campus NAT) may ask for hundreds of different inboxes
 * within a minute, but only so many in an hour. Counted by inbox (its spellings are one) and by
 * client (an IPv6 client by its /64; limit-keys.ts). All or nothing (kit's CombinedLimiter): one
 * refused by the address's limits spends nothing of the inbox's budget, and the other way round, so
 * retrying while blocked costs a student nothing; shared through Redis when there is one.
 */
export class SignInLimiter {
  private readonly limits: CombinedLimiter<SignInRequest>;
  /** Refusals by limit since start (the metrics endpoint reads them). */
  readonly refused: Record<SignInLimit, number> = { email: 0, 'address-minute': 0, 'address-hour': 0 };

  constructor(
    limits: SignInLimits,
    private readonly logger?: Logger,
    /** Counts each refusal by limit (the service's /metrics). */
    private readonly onRefused?: (limit: SignInLimit) => void,
  ) {
    this.limits = new CombinedLimiter<SignInRequest>(
      [
        {
          name: 'email',
          points: limits.perEmail,
          durationSeconds: limits.emailWindowSeconds,
          key: ({ email }) => inboxKey(email),
        },
        {
          name: 'address-minute',
          points: limits.perAddressPerMinute,
          durationSeconds: 60,
          key: ({ address }) => clientKey(address),
        },
        {
          name: 'address-hour',
          points: limits.perAddressPerHour,
          durationSeconds: 3600,
          key: ({ address }) => clientKey(address),
        },
      ],
      { keyPrefix: limits.keyPrefix, redisUrl: limits.redisUrl },
    );
  }

  /** Admits one link for `email` asked from `address`, or refuses (429) saying when to try again. */
  async consume(email: string, address: string): Promise<void> {
    const refusal = await this.limits.consume({ email, address });
    if (!refusal) return;
    const limit = refusal.name as SignInLimit;
    this.refused[limit] += 1;
    this.onRefused?.(limit);
    // An address reaching its hourly cap is asking for more inboxes than a class has: worth a look.
    if (limit === 'address-hour')
      this.logger?.warn({ address, limit }, 'sign-in links: hourly cap of an address reached');
    throw tooManyRequests(`Too many sign-in requests. Please wait ${minutesUntil(refusal)} and try again.`);
  }

  close(): Promise<void> {
    this.limits.close();
    return Promise.resolve();
  }
}
