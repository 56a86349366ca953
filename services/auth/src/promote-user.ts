import { RESEARCHER } from '@uis/proto';
import { Client } from 'pg';
import { AUTH_SCHEMA } from './auth.module';

export type PromoteOutcome = 'promoted' | 'already-researcher' | 'not-found';

/**
 * Makes an existing account a researcher: `npm run admin -- promote <email>` (scripts/src/admin.ts)
 * and, in the images, `node dist/src/promote.js <email>` (promote.ts).
 */
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

/** What a promote command says of its outcome, and whether that is a success. */
export function promotionReport(email: string, outcome: PromoteOutcome): { ok: boolean; message: string } {
  switch (outcome) {
    case 'promoted':
      return {
        ok: true,
        message: `${email} is now a researcher (they see the dashboard at their next sign-in).`,
      };
    case 'already-researcher':
      return { ok: true, message: `${email} already is a researcher.` };
    case 'not-found':
      return {
        ok: false,
        message: `No account has the e-mail ${email} yet: they sign up first (as a participant), then run this again.`,
      };
  }
}
