import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { signAccessToken, type AuthUser } from '@uis/kit';
import { randomSuffix } from '@uis/kit/testing';
import { EVERYONE, orderMessages, type MessageRecord } from '@uis/proto';
import { Client } from 'pg';
import type request from 'supertest';
import { realtimeService } from '../../src';

/**
 * The part of scripts/test/composed-stack.ts these tests use. That file belongs to the scripts
 * workspace, which depends on realtime (not the other way round), so TypeScript cannot import it
 * from here; jest loads it at run time (it maps @uis/* to sources) and this describes it.
 */
interface ComposedStack {
  env: Record<string, string>;
  db: { url: string };
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}
type StartComposedStack = (label: string, overrides?: Record<string, string>) => Promise<ComposedStack>;
const COMPOSED_STACK = path.resolve(__dirname, '../../../../scripts/test/composed-stack');

export interface Person {
  user: AuthUser;
  token: string;
}

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
    private readonly db: Client,
  ) {}

  static async start(label: string): Promise<LiveStack> {
    const { startComposedStack } = (await import(COMPOSED_STACK)) as {
      startComposedStack: StartComposedStack;
    };
    const stack = await startComposedStack(`rt_${label}`);
    const db = new Client({ connectionString: stack.db.url });
    await db.connect();
    return new LiveStack(stack, db);
  }

  /** What a realtime replica needs: secrets, and studies and records (the stack's dispatcher). */
  get env(): Record<string, string> {
    return this.stack.env;
  }

  person(type: AuthUser['type'], name: string): Person {
    const user: AuthUser = { id: randomUUID(), type, name, email: `${randomSuffix()}@live.test` };
    return { user, token: this.token(user) };
  }

  token(user: AuthUser, ttlSeconds = 600): string {
    return signAccessToken(this.stack.env.JWT_SECRET!, user, ttlSeconds);
  }

  /** A new session of the researcher's, with these participants in scope (Everyone when null). */
  async session(owner: Person, participants: readonly Person[] | null): Promise<string> {
    const groupId = (await this.post(owner, '/createGroup', {})).group!.group_id!;
    const sessionId = (await this.post(owner, '/createSession', { groupId })).session!.session_id!;
    await this.setScope(owner, sessionId, participants);
    return sessionId;
  }

  async setScope(owner: Person, sessionId: string, participants: readonly Person[] | null): Promise<void> {
    const scope = participants ? participants.map((p) => p.user.email) : EVERYONE;
    await this.post(owner, '/editSessionInfo', { sessionId, scope });
  }

  private async post(caller: Person, route: string, body: object) {
    const res = await this.stack.http().post(route).set('authorization', `Bearer ${caller.token}`).send(body);
    if (res.status !== 200) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { res: Record<string, { group_id?: string; session_id?: string }> }).res;
  }

  /** A realtime replica in this process, listening on a free loopback port. */
  async replica(overrides: Record<string, string> = {}): Promise<Replica> {
    const app = await realtimeService.createApp({ ...this.env, LOG_LEVEL: 'silent', ...overrides });
    await app.listen(0, '127.0.0.1');
    const { port } = (app.getHttpServer() as import('node:http').Server).address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
  }

  /** The session's messages as records' table holds them, in the live protocol's order. */
  async storedMessages(sessionId: string): Promise<MessageRecord[]> {
    const { rows } = await this.db.query<{ id: string; message: string; created_at: Date; name: string }>(
      'SELECT id, message, created_at, name FROM records.messages WHERE session_id = $1',
      [sessionId],
    );
    return orderMessages(
      rows.map((row) => ({
        message_id: row.id,
        message: row.message,
        time: row.created_at.toISOString(),
        name: row.name,
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
