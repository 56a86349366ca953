import { email } from '@uis/proto';
import { promoteUser, promotionReport } from './promote-user';

/**
 * `node dist/src/promote.js <email>`: makes an existing account a researcher, in the database
 * DATABASE_URL names. The auth image's way to make a deployment's first researcher while
 * RESEARCHER_EMAILS is empty: `docker compose run --rm auth node dist/src/promote.js ada@uni.example`,
 * or k8s/jobs/promote-researcher.yaml (docs/deployment.md, "The first researcher").
 */

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
const USAGE = 'Usage: node dist/src/promote.js <email>   (with DATABASE_URL set, as for the auth service)';

async function main(args: string[]): Promise<number> {
  const parsed = email().safeParse(args[0]);
  if (args.length !== 1 || !parsed.success) {
    console.error(args.length === 1 ? `"${args[0]}" is not a valid e-mail address.\n${USAGE}` : USAGE);
    return EXIT.usage;
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error(`DATABASE_URL is not set.\n${USAGE}`);
    return EXIT.usage;
  }
  const report = promotionReport(parsed.data, await promoteUser(databaseUrl, parsed.data));
  (report.ok ? console.log : console.error)(report.message);
  return report.ok ? EXIT.ok : EXIT.failed;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A database that does not answer, or auth's schema not migrated yet: one line, not a stack.
    console.error(`promote failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(EXIT.failed);
  },
);
