import { Inject, Injectable } from '@nestjs/common';
import { InternalClient, LOGGER, type Logger } from '@uis/kit';
import { SESSION_ACCESS_LISTENERS, SESSION_IDS_PER_DELETE, type ServiceName } from '@uis/proto';

/**
 * Tells realtime and signal that who may be in sessions changed (a scope or type edit) or that the
 * sessions are gone, so a participant removed from a scope stops receiving the session, and leaves
 * its call, at once. The change itself is already saved: a listener that cannot be reached is
 * logged, not failed (realtime still checks each event against studies' answer, kept at most
 * ACCESS_CACHE_MS, and a dropped connection checks everything again when it comes back).
 */
@Injectable()
export class LiveAccessNotifier {
  constructor(
    private readonly internal: InternalClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `skip`: the service that made the change, and tells its own connections (realtime's lifecycle). */
  async changed(
    sessionIds: readonly string[],
    deleted: boolean,
    { skip }: { skip?: ServiceName } = {},
  ): Promise<void> {
    const listeners = SESSION_ACCESS_LISTENERS.filter((route) => route.service !== skip);
    for (let i = 0; i < sessionIds.length; i += SESSION_IDS_PER_DELETE) {
      const batch = sessionIds.slice(i, i + SESSION_IDS_PER_DELETE);
      await Promise.all(
        listeners.map((route) =>
          this.internal.call(route, { sessionIds: batch, deleted }).catch((error: unknown) => {
            this.logger.warn(
              { service: route.service, sessions: batch.length, err: (error as Error).message },
              'could not tell a live service that session access changed',
            );
          }),
        ),
      );
    }
  }
}
