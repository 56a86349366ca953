import { Inject, Injectable } from '@nestjs/common';
import { AppError, InternalClient, unavailable } from '@uis/kit';
import {
  SESSION_DATA_OWNERS,
  internalRouteList,
  sessionDataDeletePath,
  type InternalRouteDef,
  type RestServiceName,
} from '@uis/proto';

/** Which services hold data of a session (actions, prompts, videos, records); proto's list, replaceable in tests. */
export const SESSION_DATA_OWNER_LIST = Symbol('SESSION_DATA_OWNER_LIST');
export const sessionDataOwnersProvider = { provide: SESSION_DATA_OWNER_LIST, useValue: SESSION_DATA_OWNERS };

/** The most ids one session-data delete call takes (proto's request schema). */
export const SESSION_IDS_PER_CALL = 1000;

/** A service's session-data delete endpoint from proto's table; a service without one is a wiring bug. */
function sessionDataDeleteRoute(service: RestServiceName): InternalRouteDef {
  const path = sessionDataDeletePath(service);
  const route = internalRouteList.find((r) => r.path === path && r.method === 'POST');
  if (!route) throw new Error(`proto has no ${path} for session-data owner '${service}'`);
  return route;
}

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
  private readonly routes: InternalRouteDef[];

  constructor(
    private readonly internal: InternalClient,
    @Inject(SESSION_DATA_OWNER_LIST) owners: readonly RestServiceName[],
  ) {
    this.routes = owners.map(sessionDataDeleteRoute);
  }

  async deleteDataOf(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const results = await Promise.allSettled(
      this.routes.map(async (route) => {
        for (const batch of batches(sessionIds, SESSION_IDS_PER_CALL)) {
          await this.internal.call(route, { sessionIds: batch });
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
