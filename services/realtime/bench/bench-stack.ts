import type { INestApplication } from '@nestjs/common';
import { InternalClient, signAccessToken, type AuthUser } from '@uis/kit';
import { createTestDatabase, freePort, testSecrets, testUser, type TestDatabase } from '@uis/kit/testing';
import { EVERYONE, MESSAGE_PAGE_MAX, internalRoutes, orderMessages, type MessageRecord } from '@uis/proto';
import type { Server } from 'node:http';
import { realtimeService } from '../src';
import { ChildService, startServiceProcess } from '../test/support/processes';
import type { SessionHost } from '../test/support/redis-outage';

/**
 * What a benchmark needs around realtime: studies and records as their built processes (the
 * root `npm run bench` builds first) on a throwaway database, and realtime replicas in this
 * process, where the benchmark can watch them work.
 */
export class BenchStack implements SessionHost {
  private constructor(
    private readonly db: TestDatabase,
    private readonly processes: ChildService[],
    readonly env: Record<string, string>,
  ) {}

  readonly records = () =>
    new InternalClient({ serviceToken: this.env.SERVICE_TOKEN!, urlOf: () => this.env.RECORDS_URL! });

  static async start(label: string): Promise<BenchStack> {
    const db = await createTestDatabase(label);
    const [studiesPort, recordsPort] = [await freePort(), await freePort()];
    const env: Record<string, string> = {
      ...testSecrets(),
      DATABASE_URL: db.url,
      STUDIES_URL: `http://127.0.0.1:${studiesPort}`,
      RECORDS_URL: `http://127.0.0.1:${recordsPort}`,
      LOG_LEVEL: 'warn',
    };
    const processes: ChildService[] = [];
    try {
      // One after the other: each runs its migrations on the shared database as it starts.
      processes.push(await startServiceProcess('studies', env, studiesPort));
      processes.push(await startServiceProcess('records', env, recordsPort));
    } catch (error) {
      await Promise.all(processes.map((child) => child.kill()));
      await db.drop();
      throw error;
    }
    return new BenchStack(db, processes, env);
  }

  person(type: AuthUser['type'], name: string): { user: AuthUser; token: string } {
    const user = testUser(type, { name });
    return { user, token: signAccessToken(this.env.JWT_SECRET!, user, 3600) };
  }

  async session(owner: { token: string }, participants: null): Promise<string> {
    const call = async (path: string, body: object) => {
      const res = await fetch(`${this.env.STUDIES_URL}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as {
        res: Record<string, { group_id?: string; session_id?: string }>;
      };
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
      return answer.res;
    };
    const groupId = (await call('/createGroup', {})).group!.group_id!;
    const sessionId = (await call('/createSession', { groupId })).session!.session_id!;
    await call('/editSessionInfo', { sessionId, scope: participants ?? EVERYONE });
    return sessionId;
  }

  async replica(
    overrides: Record<string, string> = {},
  ): Promise<{ url: string; app: INestApplication; close(): Promise<void> }> {
    const app = await realtimeService.createApp({ ...this.env, LOG_LEVEL: 'silent', ...overrides });
    await app.listen(0, '127.0.0.1');
    const { port } = (app.getHttpServer() as Server).address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
  }

  /** Every message of the session: records answers a page at a time (the live chat's pages). */
  async storedMessages(sessionId: string): Promise<MessageRecord[]> {
    const records = this.records();
    const messages: MessageRecord[] = [];
    for (let before: string | undefined; ;) {
      const page = await records.call(internalRoutes.recordsListMessages, {
        sessionId,
        limit: MESSAGE_PAGE_MAX,
        ...(before === undefined ? {} : { before }),
      });
      messages.unshift(...page.messages);
      if (!page.hasMore || page.messages.length === 0) break;
      before = page.messages[0]!.message_id;
    }
    return orderMessages(messages);
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.map((child) => child.kill('SIGTERM')));
    await this.db.drop();
  }
}
