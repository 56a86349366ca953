import type { INestApplication } from '@nestjs/common';
import type { AuthUser } from '@uis/kit';
import {
  createTestDatabase,
  lateBoundServer,
  testSecrets,
  testWorld,
  type Caller,
  type CastName,
  type TestDatabase,
  type TestWorld,
  createAppWithOverrides,
  sendInput,
} from '@uis/kit/testing';
import {
  MessageRecord,
  PixelRecord,
  PlaybackRecord,
  SERVICE_TOKEN_HEADER,
  internalRoutes,
  type InternalRequestOf,
  type InternalRouteDef,
  type Prompt,
} from '@uis/proto';
import { SESSION_DATA_OWNER_LIST, studiesService } from '@uis/studies';
import { Client } from 'pg';
import request from 'supertest';
import { recordsService } from '../../src';
import { startContentStandIn, type ContentTable } from './stand-ins';

export type { Caller, CastName } from '@uis/kit/testing';
/** Who realtime names as the author of an append: its checked user's id, e-mail and name. */
export interface Author {
  userId: string;
  email: string;
  name: string;
}
/** What an append carries besides its session and author. */
type Fields<R extends 'recordsAppendPixel' | 'recordsAppendPlayback'> = Omit<
  InternalRequestOf<R>,
  'sessionId' | keyof Author
>;
export type MessageItem = InternalRequestOf<'recordsAppendMessages'>['items'][number];
export type MessageFields = Partial<Omit<MessageItem, 'sessionId' | keyof Author>>;

/** Kit's test world (the cast, `as`, `person`, `session`), with records and the real studies behind it. */
export interface RecordsHarness extends TestWorld {
  app: INestApplication;
  studies: INestApplication;
  db: TestDatabase;
  /** A connection to the test database, `records` first on its search path: what a test reads or breaks directly. */
  pg: Client;
  content: ContentTable;
  /** Records' REST and internal endpoints. */
  http: () => ReturnType<typeof request>;
  /** The real studies service, which owns sessions and answers records' access checks. */
  studiesHttp: () => ReturnType<typeof request>;
  /** A person as realtime names the author of an append: id, e-mail and name. */
  author(person: CastName | Author): Author;
  setPrompts(sessionId: string, prompts: Prompt[]): void;
  /** Calls an internal route of records with the service token (or `token`; null for none). */
  internal(route: InternalRouteDef, input: object, token?: string | null): request.Test;
  /**
   * A chat message appended as realtime appends it (its group commit, a list of one), by `by`
   * (default the participant); `message` defaults to 'hi'.
   */
  appendMessage(sessionId: string, fields?: MessageFields, by?: CastName | Author): Promise<MessageRecord>;
  /** Several messages in one group commit, answered in the order of the items. */
  appendMessages(items: MessageItem[]): Promise<MessageRecord[]>;
  /** A click appended as realtime appends it, by `by` (default the participant). */
  appendPixel(
    sessionId: string,
    fields?: Partial<Fields<'recordsAppendPixel'>>,
    by?: CastName | Author,
  ): Promise<PixelRecord>;
  /** A playback entry appended as realtime appends it, by `by` (default the owner). */
  appendPlayback(
    sessionId: string,
    fields?: Partial<Fields<'recordsAppendPlayback'>>,
    by?: CastName | Author,
  ): Promise<PlaybackRecord>;
  /** A message posted over REST (`/addMessage`) by `caller`. */
  addMessage(caller: Caller, sessionId: string, message: string): Promise<MessageRecord>;
  close(): Promise<void>;
}

const listen = async (app: INestApplication): Promise<string> => {
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
};

/**
 * Records as createApp builds it, with the real studies service answering its access checks (and
 * asking records to delete a deleted session's data), both on one database of their own in their
 * own schemas, and a stand-in for content's prompt list.
 */
export async function startRecords(
  label: string,
  overrides: Record<string, string> = {},
): Promise<RecordsHarness> {
  const secrets = { ...testSecrets(), LOG_LEVEL: 'silent' };
  const [db, content, studiesServer] = await Promise.all([
    createTestDatabase(label),
    startContentStandIn(secrets),
    lateBoundServer(),
  ]);
  const env = {
    ...secrets,
    DATABASE_URL: db.url,
    STUDIES_URL: studiesServer.url,
    CONTENT_URL: content.url,
    ...overrides,
  };
  const app = await recordsService.createApp(env);
  const recordsUrl = await listen(app);
  const pg = new Client({ connectionString: db.url, options: '-c search_path=records' });
  await pg.connect();

  // Studies as createApp builds it, except that records is its one session-data owner (proto's list
  // is still empty until the lead adds the services that landed).
  const studies = await createAppWithOverrides(studiesService, { ...env, RECORDS_URL: recordsUrl }, [
    [SESSION_DATA_OWNER_LIST, ['records']],
  ]);
  await studiesServer.serve(studies);

  const http = () => request(app.getHttpServer());
  const studiesHttp = () => request(studies.getHttpServer());
  const world = testWorld({ jwtSecret: secrets.JWT_SECRET, studies: studiesHttp });
  const { users } = world;

  const authorOf = (by: CastName | Author): Author =>
    typeof by === 'string' ? { userId: users[by].id, email: users[by].email, name: users[by].name } : by;
  const internal = (route: InternalRouteDef, input: object, token: string | null = secrets.SERVICE_TOKEN) => {
    const call = sendInput(http(), route.method, route.path, input);
    return token === null ? call : call.set(SERVICE_TOKEN_HEADER, token);
  };
  const appendMessages = async (items: MessageItem[]) => {
    const res = await internal(internalRoutes.recordsAppendMessages, { items }).expect(200);
    return (res.body.res.messages as unknown[]).map((message) => MessageRecord.parse(message));
  };

  return {
    ...world,
    app,
    studies,
    db,
    pg,
    content: content.table,
    http,
    studiesHttp,
    author: authorOf,
    setPrompts(sessionId, prompts) {
      content.table.prompts.set(sessionId, prompts);
    },
    internal,
    appendMessages,
    async appendMessage(sessionId, fields = {}, by = 'participant') {
      const [message] = await appendMessages([{ sessionId, ...authorOf(by), message: 'hi', ...fields }]);
      return message!;
    },
    async appendPixel(sessionId, fields = {}, by = 'participant') {
      const click = { x: 0.5, y: 0.5, color: '#fff', ...fields };
      const res = await internal(internalRoutes.recordsAppendPixel, {
        sessionId,
        ...authorOf(by),
        ...click,
      }).expect(200);
      return PixelRecord.parse(res.body.res.pixel);
    },
    async appendPlayback(sessionId, fields = {}, by = 'owner') {
      const entry = { event: 'play', videoTime: 0, playbackRate: 1, ...fields };
      const res = await internal(internalRoutes.recordsAppendPlayback, {
        sessionId,
        ...authorOf(by),
        ...entry,
      }).expect(200);
      return PlaybackRecord.parse(res.body.res.playback);
    },
    async addMessage(caller, sessionId, message) {
      const res = await http()
        .post('/addMessage')
        .set(world.as(caller).headers)
        .send({ sessionId, message })
        .expect(200);
      return MessageRecord.parse(res.body.res.message);
    },
    async close() {
      await Promise.all([studies.close(), studiesServer.close(), app.close(), content.app.close(), pg.end()]);
      await db.drop();
    },
  };
}

/** Fails when an answer carries an e-mail or a user id of anyone the test knows. */
export function expectNoIdentities(h: RecordsHarness, body: unknown, extra: AuthUser[] = []): void {
  const text = JSON.stringify(body);
  for (const user of [...Object.values(h.users), ...extra]) {
    expect(text).not.toContain(user.email);
    expect(text).not.toContain(user.id);
  }
}

/** A CSV answer as raw bytes (supertest would decode text and might hide a byte order mark). */
export const rawBody = (response: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  // In Node, superagent hands the parser the incoming message itself.
  const res = response as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
  res.on('error', (error: Error) => done(error, Buffer.alloc(0)));
};
