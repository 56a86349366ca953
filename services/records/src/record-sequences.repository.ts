import { Injectable } from '@nestjs/common';
import type { Queryable } from './db/records-db';

/**
 * The record_sequences table: each session's last `seq` of messages and of the playback log (the
 * message append moves it in its own statement, MessagesRepository.append; a trigger for any other
 * insert: migration 1795700000000).
 */
@Injectable()
export class RecordSequencesRepository {
  /** Forgets these sessions' counters (an append waiting on one starts the session afresh). */
  async deleteSessions(tx: Queryable, sessionIds: readonly string[]): Promise<void> {
    await tx.query(
      `WITH d AS (DELETE FROM record_sequences WHERE session_id = ANY($1::uuid[]) RETURNING 1) SELECT count(*) FROM d`,
      [sessionIds],
    );
  }
}
