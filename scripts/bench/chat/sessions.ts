import { signAccessToken } from '@uis/kit';
import { apiClient, testUser } from '@uis/kit/testing';
import { EVERYONE } from '@uis/proto';
import { Client } from 'pg';
import request from 'supertest';
import { mapLimit } from '../support/measure';

/** Sessions for the chat goals: made through studies as a researcher would, history written in SQL. */

export interface BenchSession {
  sessionId: string;
  /** The researcher's token first, then each participant's. */
  tokens: string[];
}

/** `count` sessions of `size` people each (a researcher and participants), scope Everyone. */
export async function makeSessions(
  studiesUrl: string,
  jwtSecret: string,
  count: number,
  size: number,
): Promise<BenchSession[]> {
  const studies = apiClient(() => request(studiesUrl));
  const token = (type: 'researcher' | 'participant', name: string) =>
    signAccessToken(jwtSecret, testUser(type, { name }), 6 * 3600);
  return mapLimit(
    Array.from({ length: count }, (_, n) => n),
    8,
    async (n) => {
      const owner = token('researcher', `Researcher ${n}`);
      const { group } = await studies.ok('createGroup', {}, owner);
      const { session } = await studies.ok('createSession', { groupId: group.group_id }, owner);
      await studies.ok(
        'editSessionInfo',
        { sessionId: session.session_id, scope: EVERYONE, state: 'live' },
        owner,
      );
      const participants = Array.from({ length: size - 1 }, (_, p) =>
        token('participant', `Participant ${n}.${p}`),
      );
      return { sessionId: session.session_id, tokens: [owner, ...participants] };
    },
  );
}

/** `perSession` messages of history in each session, older than anything the run sends. */
export async function writeHistory(
  databaseUrl: string,
  sessionIds: string[],
  perSession: number,
): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO records.messages (session_id, author_user_id, author_email, name, message, created_at)
       SELECT s, gen_random_uuid(), 'history@bench.test', 'History',
              'History message ' || g || ' of the benchmark, about as long as a real one.',
              now() - interval '1 day' + g * interval '1 ms'
       FROM unnest($1::uuid[]) AS s, generate_series(1, $2::int) AS g`,
      [sessionIds, perSession],
    );
    await db.query('ANALYZE records.messages');
  } finally {
    await db.end();
  }
}
