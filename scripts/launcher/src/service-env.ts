import { SERVICE_NAMES } from '@uis/proto';
import type { Secrets } from './data-dir';

/**
 * What the embedded mode sets for the services when the environment does not: every service shares
 * the generated secrets, and every `<SERVICE>_URL` is the API dispatcher, which routes
 * `/internal/<service>/...` to the app in this process.
 */
export function embeddedEnvDefaults(input: {
  apiPort: number;
  secrets: Secrets;
  outboxDir: string;
}): Record<string, string> {
  const dispatcher = `http://127.0.0.1:${input.apiPort}`;
  return {
    JWT_SECRET: input.secrets.JWT_SECRET,
    SERVICE_TOKEN: input.secrets.SERVICE_TOKEN,
    PUBLIC_URL: `http://localhost:${input.apiPort}`,
    // A newcomer's own sign-up should open the researcher dashboard; `npm run admin -- promote` is the strict way.
    RESEARCHER_EMAILS: '*',
    LOG_FORMAT: 'pretty',
    // Where the mailer keeps magic-link mails when there is no SMTP_URL.
    OUTBOX_DIR: input.outboxDir,
    ...Object.fromEntries(SERVICE_NAMES.map((name) => [`${name.toUpperCase()}_URL`, dispatcher])),
  };
}

/**
 * Sets each variable the environment leaves unset: what the person set always wins, even empty
 * (RESEARCHER_EMAILS= means "nobody signs up as researcher").
 */
export function applyDefaults(env: NodeJS.ProcessEnv, defaults: Record<string, string>): void {
  for (const [name, value] of Object.entries(defaults)) {
    if (env[name] === undefined) env[name] = value;
  }
}
