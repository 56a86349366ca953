import { RESEARCHER } from '@uis/proto';
import { Client } from 'pg';
import { AUTH_SCHEMA } from './auth.module';

export type PromoteOutcome = 'promoted' | 'already-researcher' | 'not-found';

/** `npm run admin -- promote <email>`: makes an existing account a researcher. */
export async function promoteUser(databaseUrl: string, email: string): Promise<PromoteOutcome> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ type: string }>(
      `SELECT type FROM "${AUTH_SCHEMA}".users WHERE email = $1`,
      [email.trim().toLowerCase()],
    );
    const user = rows[0];
    if (!user) return 'not-found';
    if (user.type === RESEARCHER) return 'already-researcher';
    await client.query(`UPDATE "${AUTH_SCHEMA}".users SET type = $1 WHERE email = $2`, [
      RESEARCHER,
      email.trim().toLowerCase(),
    ]);
    return 'promoted';
  } finally {
    await client.end();
  }
}
