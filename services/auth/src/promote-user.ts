import { Client } from 'pg';
import { AUTH_SCHEMA } from './auth.module';
import { promoteToResearcher, type PromoteOutcome } from './users/users.repository';

export type { PromoteOutcome } from './users/users.repository';

/**
 * Makes an existing account a researcher: `npm run admin -- promote <email>` (scripts/src/admin.ts)
 * and, in the images, `node dist/src/promote.js <email>` (promote.ts).
 */
export async function promoteUser(databaseUrl: string, email: string): Promise<PromoteOutcome> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await promoteToResearcher(client, AUTH_SCHEMA, email.trim().toLowerCase());
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
