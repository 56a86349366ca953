import { Inject, Injectable } from '@nestjs/common';
import { AppError, InternalClient, unavailable } from '@uis/kit';
import {
  SESSION_DATA_OWNERS,
  SESSION_IDS_PER_DELETE,
  sessionDataDeleteRoute,
  type SessionDataOwner,
} from '@uis/proto';

/** Which services hold data of a session (actions, prompts, videos, records); proto's list, replaceable in tests. */
export const SESSION_DATA_OWNER_LIST = Symbol('SESSION_DATA_OWNER_LIST');
export const sessionDataOwnersProvider = { provide: SESSION_DATA_OWNER_LIST, useValue: SESSION_DATA_OWNERS };

const batches = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * Before studies deletes sessions, each service that holds their data deletes it. Called first so
 * that a failure leaves the sessions in place (the owner can retry; every owner's delete is
 * idempotent) instead of leaving data nobody can reach or delete any more.
 */
@Injectable()
export class SessionDataDeletion {
  constructor(
    private readonly internal: InternalClient,
    @Inject(SESSION_DATA_OWNER_LIST) private readonly owners: readonly SessionDataOwner[],
  ) {}

  async deleteDataOf(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const results = await Promise.allSettled(
      this.owners.map(async (owner) => {
        for (const batch of batches(sessionIds, SESSION_IDS_PER_DELETE)) {
          await this.internal.call(sessionDataDeleteRoute(owner), { sessionIds: batch });
        }
      }),
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) {
      const reason = failure.reason instanceof AppError ? failure.reason.message : String(failure.reason);
      throw unavailable(`Nothing was deleted: ${reason}. Please try again.`);
    }
  }
}
