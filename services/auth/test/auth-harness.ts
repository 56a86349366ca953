import type { INestApplication } from '@nestjs/common';
import type { UserDataOwner } from '@uis/proto';
import { mailerService } from '@uis/mailer';
import { startSmtpSink, recipientsOf, type SmtpSink } from '@uis/mailer/testing';
import {
  TEST_REDIS_URL,
  createTestDatabase,
  randomSuffix,
  signedUpOf,
  testSecrets,
  testWorld,
  type SignedUp,
  type TestDatabase,
  type TestWorld,
  createAppWithOverrides,
} from '@uis/kit/testing';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { internalRoutes, STATUS } from '@uis/proto';
import request from 'supertest';
import { authService } from '../src';
import { USER_DATA_OWNER_LIST } from '../src/account-deletion/account-deletion.service';

/** Auth as createApp builds it, except for the services it asks to delete a user's data. */
async function authWithOwners(
  env: Record<string, string>,
  owners: UserDataOwner[],
): Promise<INestApplication> {
  return createAppWithOverrides(authService, env, [[USER_DATA_OWNER_LIST, owners]]);
}

/**
 * Studies as auth asks it (the participant directory's one question): the people of each
 * researcher's sessions, as the test sets them.
 */
export interface StudiesStandIn {
  people: Map<string, string[]>;
  url: string;
  close(): Promise<void>;
}

async function startStudiesStandIn(): Promise<StudiesStandIn> {
  const people = new Map<string, string[]>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://studies');
    const found = url.pathname === internalRoutes.studiesResearcherPeople.path;
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        found
          ? {
              status: STATUS.SUCCESS,
              res: { emails: people.get(url.searchParams.get('userId') ?? '') ?? [] },
            }
          : { status: STATUS.ERROR, res: { message: 'not here', code: 'NOT_FOUND' } },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    people,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Kit's test world (the cast, `as`, `person`: tokens auth accepts, for people with no account), with
 * auth and the mailer behind it; people with an account sign up through it (`signUp`).
 */
export interface AuthHarness extends TestWorld {
  app: INestApplication;
  studies: StudiesStandIn;
  mailer: INestApplication;
  smtp: SmtpSink;
  db: TestDatabase;
  env: Record<string, string>;
  http: () => ReturnType<typeof request>;
  /** Requests a magic link for `email` and returns the link from the mail that arrives. */
  mailedLink(email: string, from?: string): Promise<URL>;
  /** Signs up through the magic link (the way the web app does): the person, signed in with auth's tokens. */
  signUp(email: string, name: string, type?: 'researcher' | 'participant'): Promise<SignedUp>;
  close(): Promise<void>;
}

/** A token pair as auth answers it (/setNewUser, /getUserTokens, a refresh). */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export const PUBLIC_URL = 'https://uis.example.test';

/** Auth and the real mailer worker on the real Postgres and Redis, mailing into an SMTP server of the test. */
export async function startAuth(
  label: string,
  overrides: Record<string, string> = {},
  /** The services account deletion asks first; none here (the composed-stack tests run the real ones). */
  userDataOwners: UserDataOwner[] = [],
): Promise<AuthHarness> {
  const [db, smtp, studies] = await Promise.all([
    createTestDatabase(label),
    startSmtpSink(),
    startStudiesStandIn(),
  ]);
  const env: Record<string, string> = {
    ...testSecrets(),
    STUDIES_URL: studies.url,
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    SMTP_URL: smtp.url,
    QUEUE_PREFIX: `uis-test-${label}-${randomSuffix()}`,
    PUBLIC_URL,
    MAIL_FROM: 'User Interaction Simulator <no-reply@uis.example.test>',
    RESEARCHER_EMAILS: '@lab.test',
    // The harness plays the gateway: its X-Forwarded-For names the client (mailedLink varies it).
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'silent',
    MAIL_BACKOFF_MS: '50',
    ...overrides,
  };
  const started = await Promise.allSettled([
    authWithOwners(env, userDataOwners),
    mailerService.createApp(env),
  ]);
  const [authStart, mailerStart] = started;
  if (authStart.status === 'rejected' || mailerStart.status === 'rejected') {
    // A refused configuration (the boot-check tests): nothing of this harness may outlive the test.
    for (const start of started) if (start.status === 'fulfilled') await start.value.close();
    await Promise.all([smtp.close(), db.drop(), studies.close()]);
    throw authStart.status === 'rejected' ? authStart.reason : (mailerStart as PromiseRejectedResult).reason;
  }
  const [auth, mailer] = [authStart.value, mailerStart.value];
  const http = () => request(auth.getHttpServer());
  let address = 0;

  const harness: AuthHarness = {
    ...testWorld({ jwtSecret: env.JWT_SECRET! }),
    app: auth,
    studies,
    mailer,
    smtp,
    db,
    env,
    http,
    async mailedLink(email, from = `10.0.0.${++address % 250}`) {
      const before = smtp.mails.length;
      await http()
        .post('/auth/magiclogin')
        .set('x-forwarded-for', from)
        .send({ destination: email })
        .expect(200);
      const mail = await smtp.waitForMail(
        (m) => smtp.mails.indexOf(m) >= before && recipientsOf(m).includes(email.toLowerCase()),
      );
      const found = /https?:\/\/\S+\/authcallback\?\S+/.exec(mail.text ?? '');
      if (!found) throw new Error(`no link in mail: ${mail.text}`);
      return new URL(found[0]);
    },
    async signUp(email, name, type = 'participant') {
      const link = await harness.mailedLink(email);
      const token = link.searchParams.get('token')!;
      const res = await http().post('/setNewUser').send({ email, name, type, token }).expect(200);
      return signedUpOf(env.JWT_SECRET!, res.body.res as Tokens);
    },
    async close() {
      await Promise.all([auth.close(), mailer.close()]);
      await Promise.all([smtp.close(), db.drop(), studies.close()]);
    },
  };
  return harness;
}
