import path from 'node:path';

export interface BannerFacts {
  publicUrl: string;
  webBuilt: boolean;
  /** Services on ports of their own, with the path they also answer on through the API port. */
  ownPorts: { service: string; port: number; path?: string }[];
  /** Where the embedded Postgres keeps its data, or undefined when DATABASE_URL is used. */
  embeddedPostgres?: { dir: string; port: number };
  embeddedS3?: { dir: string; port: number; bucket: string };
  redis: boolean;
  smtp: boolean;
  outboxDir: string;
  researcherEmails: string;
}

const relative = (dir: string) => {
  const rel = path.relative(process.cwd(), dir);
  return rel && !rel.startsWith('..') ? rel : dir;
};

const researchers = (emails: string) =>
  emails === '*'
    ? 'anyone may sign up as researcher'
    : emails
      ? `sign-ups from ${emails}`
      : 'nobody signs up as researcher';

/** The few lines a newcomer needs after `npm start`: where to go, how to sign in, what runs where. */
export function banner(facts: BannerFacts): string {
  const lines = [
    '',
    `  User Interaction Simulator is running: ${facts.publicUrl}`,
    '',
    facts.webBuilt
      ? `  Web app      ${facts.publicUrl}`
      : '  Web app      not built yet (npm run build -w web); the API answers meanwhile',
    `  API          ${facts.publicUrl}  (/health, /ready)`,
    ...facts.ownPorts.map(
      ({ service, port, path: viaApi }) =>
        `  ${service.padEnd(12)} :${port}${viaApi ? `  (also ${facts.publicUrl}${viaApi})` : ''}`,
    ),
    facts.smtp
      ? '  Magic links  mailed through SMTP_URL'
      : `  Magic links  printed in this console and saved in ${relative(facts.outboxDir)}/ (no SMTP_URL)`,
    `  Researchers  ${researchers(facts.researcherEmails)} (RESEARCHER_EMAILS); or: npm run admin -- promote <email>`,
    facts.embeddedPostgres
      ? `  Postgres     embedded, 127.0.0.1:${facts.embeddedPostgres.port}, data in ${relative(facts.embeddedPostgres.dir)}/`
      : '  Postgres     external (DATABASE_URL)',
    facts.embeddedS3
      ? `  Objects      embedded S3, 127.0.0.1:${facts.embeddedS3.port}, bucket ${facts.embeddedS3.bucket}, data in ${relative(facts.embeddedS3.dir)}/`
      : '  Objects      external S3 (S3_ENDPOINT)',
    facts.redis ? '  Redis        external (REDIS_URL)' : '  Queue        in-process (no REDIS_URL)',
    '',
    '  Ctrl-C stops everything.',
    '',
  ];
  return lines.join('\n');
}
