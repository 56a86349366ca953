/// <reference types="node" />

/**
 * What global-setup tells the test workers about the running `npm start` (through the environment,
 * which Playwright hands from the setup to its workers).
 */
const NAMES = {
  baseUrl: 'E2E_BASE_URL',
  serverLog: 'E2E_SERVER_LOG',
  outboxDir: 'E2E_OUTBOX_DIR',
  oidcIssuer: 'E2E_OIDC_ISSUER',
  turnUrl: 'E2E_TURN_URL',
  turnSecret: 'E2E_TURN_SECRET',
} as const;

export interface StackInfo {
  /** Where the app is served, as the magic links name it (http://localhost:<API_PORT>). */
  baseUrl: string;
  /** Everything the process printed, for the `[dev outbox]` lines. */
  serverLog: string;
  /** The dev outbox's .eml files, the fallback for magic links. */
  outboxDir: string;
  /** The test's OpenID Connect provider (support/oidc.ts). */
  oidcIssuer: string;
  /** The run's coturn (support/turn.ts): the server's TURN_URLS, and the secret it shares with it. */
  turnUrl: string;
  turnSecret: string;
}

export function publishStack(info: StackInfo): void {
  for (const [key, name] of Object.entries(NAMES)) process.env[name] = info[key as keyof StackInfo];
}

export function stack(): StackInfo {
  const read = (name: string) => {
    const value = process.env[name];
    if (!value)
      throw new Error(`${name} is not set: the e2e tests run through playwright.config.ts's global setup`);
    return value;
  };
  return {
    baseUrl: read(NAMES.baseUrl),
    serverLog: read(NAMES.serverLog),
    outboxDir: read(NAMES.outboxDir),
    oidcIssuer: read(NAMES.oidcIssuer),
    turnUrl: read(NAMES.turnUrl),
    turnSecret: read(NAMES.turnSecret),
  };
}
