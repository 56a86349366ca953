import fs from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { simpleParser } from 'mailparser';
import { promoteUser } from '@uis/auth';
import { answerClientErrors } from '@uis/kit';
import {
  apiClient,
  createTestDatabase,
  freePort,
  randomSuffix,
  signedUpOf,
  testSecrets,
  testWorld,
  waitFor,
  type ApiClient,
  type TestDatabase,
  type SignedUp,
  type TestWorld,
} from '@uis/kit/testing';
import { SERVICE_NAMES, type ServiceName } from '@uis/proto';
import request from 'supertest';
import { createApiDispatcher, forwardUpgrades } from '../../launcher/src/api-dispatch';
import { COMPOSED_SERVICES } from '../../launcher/src/composition';
import { startEmbeddedS3 } from '../../launcher/src/embedded-s3';
import { closeServer } from '../../launcher/src/ports';

/**
 * Kit's test world over the whole stack (the cast as `as('owner')`: tokens the stack accepts, for
 * people with no account; sessions through studies), and people who sign up as a person does (`signUp`).
 */
export interface ComposedStack extends TestWorld {
  env: Record<string, string>;
  db: TestDatabase;
  /** Where the S3 server keeps the objects of the stack's bucket. */
  objectsDir: string;
  outboxDir: string;
  apps: ReadonlyMap<ServiceName, INestApplication>;
  http: () => ReturnType<typeof request>;
  /** Proto's routes by name, as someone (kit's typed test client). */
  api: ApiClient;
  close(): Promise<void>;
}

export type { SignedUp } from '@uis/kit/testing';

/**
 * Every service composed as `npm start` composes them (one dispatcher routing proto's table, internal
 * calls through it), on a database of its own and an S3 server of its own: the whole product over
 * real HTTP, for tests that cross services.
 */
export async function startComposedStack(
  label: string,
  overrides: Record<string, string> = {},
): Promise<ComposedStack> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `uis-${label}-`));
  const db = await createTestDatabase(label);
  const bucket = `uis-${randomSuffix()}`;
  const s3 = await startEmbeddedS3({ directory: path.join(scratch, 's3'), port: await freePort(), bucket });

  // The dispatcher's port must be known before the apps are built: their internal URLs point at it.
  let dispatch: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => dispatch(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const dispatcher = `http://127.0.0.1:${port}`;

  const outboxDir = path.join(scratch, 'outbox');
  const env: Record<string, string> = {
    ...testSecrets(),
    ...s3.env,
    DATABASE_URL: db.url,
    PUBLIC_URL: dispatcher,
    OUTBOX_DIR: outboxDir,
    LOG_LEVEL: 'silent',
    ...Object.fromEntries(SERVICE_NAMES.map((name) => [`${name.toUpperCase()}_URL`, dispatcher])),
    ...overrides,
  };
  const apps = new Map<ServiceName, INestApplication>();
  for (const definition of COMPOSED_SERVICES) apps.set(definition.name, await definition.createApp(env));
  dispatch = createApiDispatcher({ apps });
  forwardUpgrades(server, apps);
  answerClientErrors(server);

  const http = () => request(server);
  return {
    ...testWorld({ jwtSecret: env.JWT_SECRET!, studies: http }),
    env,
    db,
    objectsDir: path.join(scratch, 's3', bucket),
    outboxDir,
    apps,
    http,
    api: apiClient(http),
    async close() {
      await closeServer(server);
      for (const app of [...apps.values()].reverse()) await app.close();
      await s3.stop();
      await db.drop();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * Signs someone up as a person does: the magic link (read from the dev outbox) proves the e-mail,
 * /setNewUser creates the account. A researcher is then promoted (`npm run admin -- promote`) and
 * refreshes, so their access token says researcher.
 */
export async function signUp(
  stack: ComposedStack,
  email: string,
  name: string,
  type: 'participant' | 'researcher' = 'participant',
): Promise<SignedUp> {
  const token = (await mailedLink(stack, email)).searchParams.get('token') ?? '';
  let pair = await stack.api.ok('setNewUser', { email, name, token });
  if (type === 'researcher') {
    await promoteUser(stack.env.DATABASE_URL!, email);
    pair = await stack.api.ok('getAccessTokenFromRefreshToken', { refreshToken: pair.refreshToken });
  }
  return signedUpOf(stack.env.JWT_SECRET!, pair);
}

/** The magic links the dev outbox saved for `email`, oldest first. */
async function outboxLinks(outboxDir: string, email: string): Promise<URL[]> {
  const files = fs.existsSync(outboxDir) ? fs.readdirSync(outboxDir).sort() : [];
  const links: URL[] = [];
  for (const file of files) {
    const mail = await simpleParser(fs.readFileSync(path.join(outboxDir, file)));
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    if (!to.some((address) => address.value.some((entry) => entry.address === email))) continue;
    const link = /https?:\/\/\S+\/authcallback\?\S+/.exec(mail.text ?? '');
    if (link) links.push(new URL(link[0]));
  }
  return links;
}

/**
 * Asks for a magic link for `email` and answers the one mailed for this request (the in-process
 * queue sends asynchronously, and earlier links of the same address are already in the outbox).
 */
export async function mailedLink(stack: ComposedStack, email: string, timeoutMs = 5_000): Promise<URL> {
  const before = (await outboxLinks(stack.outboxDir, email)).length;
  await stack.api.ok('magicLogin', { destination: email });
  return waitFor(
    async () => (await outboxLinks(stack.outboxDir, email))[before],
    `a magic link for ${email} in ${stack.outboxDir}`,
    timeoutMs,
  );
}
