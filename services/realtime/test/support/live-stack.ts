import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { InternalClient, Metrics, type AuthUser } from '@uis/kit';
import {
  signedUpOf,
  testUser,
  type Scope,
  type SessionOptions,
  type SignedUp,
  type TestPerson,
  type TestWorld,
} from '@uis/kit/testing';
import {
  internalRoutes,
  orderMessages,
  type ExposureRecord,
  type MessageRecord,
  type PlaybackRecord,
} from '@uis/proto';
import { Client } from 'pg';
import type request from 'supertest';
import { realtimeService } from '../../src';
import type { SessionHost } from './redis-outage';

/**
 * The part of scripts/system-tests/support/composed-stack.ts these tests use. That file belongs to the scripts
 * workspace, which depends on realtime (not the other way round), so TypeScript cannot import it
 * from here; jest loads it at run time (it maps @uis/* to sources) and this describes it.
 */
interface ComposedStack extends Pick<TestWorld, 'person' | 'signIn' | 'session' | 'editSession'> {
  env: Record<string, string>;
  db: { url: string };
  apps: ReadonlyMap<string, INestApplication>;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}
interface ComposedStackModule {
  startComposedStack(label: string, overrides?: Record<string, string>): Promise<ComposedStack>;
  /** Someone with an account: a TestPerson and their refresh token. */
  signUp(stack: ComposedStack, email: string, name: string): Promise<SignedIn>;
  /** Asks auth for a magic link for `email` and answers the one mailed for that request. */
  mailedLink(stack: ComposedStack, email: string): Promise<URL>;
}
const COMPOSED_STACK = path.resolve(__dirname, '../../../../scripts/system-tests/support/composed-stack');

export type { TestPerson } from '@uis/kit/testing';

/** Someone with an account in auth, signed in: their access token's login can be revoked. */
export type SignedIn = SignedUp;

export interface Replica {
  url: string;
  app: INestApplication;
  close(): Promise<void>;
}

/**
 * Every REST service of `npm start` on a database of their own (the composed stack), people with
 * tokens signed by its secret, sessions made through the real REST API (so access checks are
 * studies' real answers), and realtime replicas started on free ports against it.
 */
export class LiveStack {
  private constructor(
    private readonly stack: ComposedStack,
    private readonly composed: ComposedStackModule,
    private readonly db: Client,
  ) {}

  /** `overrides` reach every service of the stack, its own realtime included (e.g. REDIS_URL). */
  static async start(label: string, overrides: Record<string, string> = {}): Promise<LiveStack> {
    const composed = (await import(COMPOSED_STACK)) as ComposedStackModule;
    const stack = await composed.startComposedStack(`rt_${label}`, overrides);
    const db = new Client({ connectionString: stack.db.url });
    await db.connect();
    return new LiveStack(stack, composed, db);
  }

  /**
   * The stack's own realtime, reached through the API port as the browser reaches it. It is the
   * realtime studies' notices go to (REALTIME_URL is the stack's dispatcher).
   */
  get url(): string {
    return this.stack.env.PUBLIC_URL!;
  }

  /** The stack's own realtime app (a replica like the others when the stack has REDIS_URL). */
  get realtimeApp(): INestApplication {
    return this.stack.apps.get('realtime')!;
  }

  /** What a realtime replica needs: secrets, and studies and records (the stack's dispatcher). */
  get env(): Record<string, string> {
    return this.stack.env;
  }

  /** Someone new, signed in (a token valid for an hour). */
  person(type?: AuthUser['type'], overrides?: Partial<AuthUser>): TestPerson {
    return this.stack.person(type, overrides);
  }

  /** Another token of someone's (e.g. one expiring soon, or expired). */
  signIn(user: AuthUser, ttlSeconds?: number): TestPerson {
    return this.stack.signIn(user, ttlSeconds);
  }

  /** A new session (default scope: the cast's participant; give `scope` and `owner`). */
  session(options: SessionOptions): Promise<string> {
    return this.stack.session(options);
  }

  /** Changes who is in a session made by `session()`, as its owner does. */
  editSession(sessionId: string, edit: { scope?: Scope }): Promise<void> {
    return this.stack.editSession(sessionId, edit);
  }

  /** This stack in the shape runRedisOutage drives (the realtime benchmark's stack has that shape too). */
  sessionHost(): SessionHost {
    const people = new Map<string, TestPerson>();
    return {
      person: (type, name) => {
        const person = this.person(type, { name });
        people.set(person.token, person);
        return person;
      },
      session: (owner, participants) => this.session({ owner: people.get(owner.token), scope: participants }),
      replica: (overrides) => this.replica(overrides),
      storedMessages: (sessionId) => this.storedMessages(sessionId),
    };
  }

  async deleteSession(owner: TestPerson, sessionId: string): Promise<void> {
    await this.post(owner, '/deleteSession', { sessionId });
  }

  /** Signs someone up through auth as a person does (the magic link from the dev outbox). */
  async signUp(name: string): Promise<SignedIn> {
    const email = testUser('participant', { name }).email;
    return this.composed.signUp(this.stack, email, name);
  }

  /** Another login of someone signed up already (a second device): a new magic link, a new login id. */
  async signInAgain(person: SignedIn): Promise<SignedIn> {
    const { email } = person.user;
    const token = (await this.composed.mailedLink(this.stack, email)).searchParams.get('token') ?? '';
    const res = await this.stack.http().get('/getUserTokens').query({ email, token });
    if (res.status !== 200) throw new Error(`/getUserTokens: ${res.status} ${JSON.stringify(res.body)}`);
    return signedUpOf(
      this.env.JWT_SECRET!,
      (res.body as { res: { accessToken: string; refreshToken: string } }).res,
    );
  }

  /** Signs out as the web client does: the refresh token's login ends (auth revokes it). */
  async logout(person: SignedIn): Promise<void> {
    await this.post(null, '/logout', { refreshToken: person.refreshToken });
  }

  /** Deletes the account as its owner does. */
  async deleteAccount(person: TestPerson): Promise<void> {
    await this.post(person, '/deleteUser', { email: person.user.email });
  }

  /** Records' internal client, as realtime calls it (to store messages without a socket). */
  records(): InternalClient {
    return new InternalClient({ serviceToken: this.env.SERVICE_TOKEN!, urlOf: () => this.env.RECORDS_URL! });
  }

  /** How many requests records has answered on the route `path` (its own /metrics counts). */
  async recordsRequests(path: string): Promise<number> {
    const metrics = this.stack.apps.get('records')!.get(Metrics);
    const duration = await metrics.registry.getSingleMetric('http_request_duration_seconds')?.get();
    // A histogram's values are its buckets, sum and count, each named.
    const values = (duration?.values ?? []) as {
      metricName?: string;
      labels: { route?: unknown };
      value: number;
    }[];
    return values
      .filter((v) => v.metricName === 'http_request_duration_seconds_count' && v.labels.route === path)
      .reduce((sum, v) => sum + v.value, 0);
  }

  /** `count` messages stored one after the other (so their order is their stored order), as `author`. */
  async storeMessages(sessionId: string, author: TestPerson, count: number, label = 'Stored'): Promise<void> {
    const records = this.records();
    for (let n = 1; n <= count; n += 1) {
      await records.call(internalRoutes.recordsAppendMessages, {
        items: [
          {
            sessionId,
            userId: author.user.id,
            email: author.user.email,
            name: author.user.name,
            message: `${label} ${n}`,
          },
        ],
      });
    }
  }

  private async post(caller: TestPerson | null, route: string, body: object) {
    const post = this.stack.http().post(route);
    const res = await (caller ? post.set('authorization', `Bearer ${caller.token}`) : post).send(body);
    if (res.status !== 200) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { res: Record<string, { group_id?: string; session_id?: string }> }).res;
  }

  /** The session's playback log, as its owner reads it (records' REST route). */
  async playbackLog(owner: TestPerson, sessionId: string): Promise<PlaybackRecord[]> {
    const res = await this.stack
      .http()
      .get('/getPlayback')
      .set('authorization', `Bearer ${owner.token}`)
      .query({ sessionId });
    if (res.status !== 200) throw new Error(`/getPlayback: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { res: { playback: PlaybackRecord[] } }).res.playback;
  }

  /** The session's exposure log, as its owner reads it (records' REST route, its first page). */
  async exposureLog(owner: TestPerson, sessionId: string): Promise<ExposureRecord[]> {
    const res = await this.stack
      .http()
      .get('/getExposureEvents')
      .set('authorization', `Bearer ${owner.token}`)
      .query({ sessionId });
    if (res.status !== 200) throw new Error(`/getExposureEvents: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { res: { events: ExposureRecord[] } }).res.events;
  }

  /** A realtime replica in this process, listening on a free loopback port. */
  async replica(overrides: Record<string, string> = {}): Promise<Replica> {
    const app = await realtimeService.createApp({ ...this.env, LOG_LEVEL: 'silent', ...overrides });
    await app.listen(0, '127.0.0.1');
    const { port } = (app.getHttpServer() as import('node:http').Server).address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
  }

  /** The session's messages as records' table holds them, in the chat's order. */
  async storedMessages(sessionId: string): Promise<MessageRecord[]> {
    const { rows } = await this.db.query<{
      id: string;
      seq: string;
      message: string;
      created_at: Date;
      name: string;
      video_time: number | null;
      action_id: string | null;
    }>(
      'SELECT id, seq, message, created_at, name, video_time, action_id FROM records.messages WHERE session_id = $1',
      [sessionId],
    );
    return orderMessages(
      rows.map((row) => ({
        message_id: row.id,
        seq: row.seq,
        message: row.message,
        time: row.created_at.toISOString(),
        name: row.name,
        videoTime: row.video_time,
        actionId: row.action_id,
      })),
    );
  }

  async storedPixels(sessionId: string): Promise<Array<{ x: number; y: number; video_time: number | null }>> {
    const { rows } = await this.db.query<{ x: number; y: number; video_time: number | null }>(
      'SELECT x, y, video_time FROM records.pixels WHERE session_id = $1 ORDER BY seq',
      [sessionId],
    );
    return rows;
  }

  async close(): Promise<void> {
    await this.db.end();
    await this.stack.close();
  }
}
