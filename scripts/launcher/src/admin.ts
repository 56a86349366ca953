import fs from 'node:fs';
import path from 'node:path';
import { promoteUser, promotionReport } from '@uis/auth';
import { ConfigError } from '@uis/kit';
import { email } from '@uis/proto';
import { claimDataDir, dataDir, dataPaths, readSecrets } from './data-dir';
import {
  DEFAULT_EMBEDDED_PG_PORT,
  EMBEDDED_DATABASE,
  postgresUrl,
  runningPostmaster,
  startEmbeddedPostgres,
} from './embedded-postgres';
import { portFromEnv } from './ports';
import { StartupError } from './startup-error';

/** `npm run admin -- <command>`: operator commands against the same database `npm start` uses. */

const USAGE = `Usage: npm run admin -- promote <email>

  promote <email>   Make an existing user a researcher (they see the dashboard at their next sign-in).

Uses DATABASE_URL when it is set; otherwise the embedded Postgres under .data/postgres
(the one a running \`npm start\` serves, or started for the moment of the command).`;

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

class UsageError extends Error {}

const log = (message: string) => console.error(`[admin] ${message}`);

/** Runs `work` with a DATABASE_URL, starting the embedded Postgres only for its duration if need be. */
async function withDatabase<T>(work: (databaseUrl: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return work(process.env.DATABASE_URL);

  const paths = dataPaths(dataDir());
  const secrets = readSecrets(paths.secrets);
  if (!secrets || !fs.existsSync(path.join(paths.postgres, 'PG_VERSION'))) {
    throw new StartupError(
      `There is no embedded database in ${paths.root} yet: run \`npm start\` once and sign up first (or set DATABASE_URL).`,
    );
  }
  const running = runningPostmaster(paths.postgres);
  if (running) return work(postgresUrl(running.port, secrets.POSTGRES_PASSWORD, EMBEDDED_DATABASE));

  const lock = claimDataDir(paths.lock);
  try {
    log('Starting the embedded Postgres for this command...');
    const postgres = await startEmbeddedPostgres({
      clusterDir: paths.postgres,
      port: portFromEnv('EMBEDDED_PG_PORT', DEFAULT_EMBEDDED_PG_PORT),
      password: secrets.POSTGRES_PASSWORD,
      database: EMBEDDED_DATABASE,
      log,
    });
    try {
      return await work(postgres.url);
    } finally {
      await postgres.stop();
    }
  } finally {
    lock.release();
  }
}

async function promote(args: string[]): Promise<number> {
  if (args.length !== 1) throw new UsageError('promote takes exactly one e-mail address.');
  const parsed = email().safeParse(args[0]);
  if (!parsed.success) throw new UsageError(`"${args[0]}" is not a valid e-mail address.`);
  const address = parsed.data;
  const report = promotionReport(
    address,
    await withDatabase((databaseUrl) => promoteUser(databaseUrl, address)),
  );
  (report.ok ? console.log : console.error)(report.message);
  return report.ok ? EXIT.ok : EXIT.failed;
}

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = { promote };

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`Unknown command "${name}".`);
    return await command(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof StartupError || error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error(
        `admin ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
    return EXIT.failed;
  }
}

// Ctrl-C must run the 'exit' handlers, which stop a Postgres this command started.
process.on('SIGINT', () => process.exit(130));

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(EXIT.failed);
  },
);
