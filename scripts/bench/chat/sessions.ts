import { signAccessToken } from '@uis/kit';
import { testUser } from '@uis/kit/testing';
import { EVERYONE } from '@uis/proto';
import { Client } from 'pg';
import { mapLimit } from '../support/measure';

/** Sessions for the chat goals: made through studies as a researcher would, history written in SQL. */

export interface BenchSession {
  sessionId: string;
  /** The researcher's token first, then each participant's. */
  tokens: string[];
}

type Call = (token: string, route: string, body: object) => Promise<Record<string, Record<string, string>>>;

const callerOf =
  (studiesUrl: string): Call =>
  async (token, route, body) => {
    const res = await fetch(`${studiesUrl}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { res: Record<string, Record<string, string>> };
    if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(answer)}`);
    return answer.res;
  };

/** `count` sessions of `size` people each (a researcher and participants), scope Everyone. */
export async function makeSessions(
  studiesUrl: string,
  jwtSecret: string,
  count: number,
  size: number,
): Promise<BenchSession[]> {
  const call = callerOf(studiesUrl);
  const token = (type: 'researcher' | 'participant', name: string) =>
    signAccessToken(jwtSecret, testUser(type, { name }), 6 * 3600);
  return mapLimit(
    Array.from({ length: count }, (_, n) => n),
    8,
    async (n) => {
      const owner = token('researcher', `Researcher ${n}`);
      const groupId = (await call(owner, '/createGroup', {})).group!.group_id!;
      const sessionId = (await call(owner, '/createSession', { groupId })).session!.session_id!;
      await call(owner, '/editSessionInfo', { sessionId, scope: EVERYONE });
      const participants = Array.from({ length: size - 1 }, (_, p) =>
        token('participant', `Participant ${n}.${p}`),
      );
      return { sessionId, tokens: [owner, ...participants] };
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
