import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Controller, type INestApplication } from '@nestjs/common';
import { Input, InternalEndpoint, defineService, serviceEnv } from '@uis/kit';
import {
  TINY_MP4,
  createTestDatabase,
  randomSuffix,
  scopeOf,
  testSecrets,
  testWorld,
  type CastName,
  type Scope,
  type TestDatabase,
  type TestWorld,
  createAppWithOverrides,
} from '@uis/kit/testing';
import {
  EVERYONE,
  internalRoutes,
  type Action,
  type Prompt,
  type ParsedInternalRequestOf,
  type SessionAccess,
  type SessionType,
} from '@uis/proto';
import { SESSION_DATA_OWNER_LIST, studiesService } from '@uis/studies';
import { Client } from 'minio';
import S3rver from 's3rver';
import request from 'supertest';
import type { Response as SuperagentResponse } from 'superagent';
import { contentService } from '../src';

export const FIXTURE_MP4 = fs.readFileSync(TINY_MP4);
export type { CastName } from '@uis/kit/testing';

export interface SessionOptions {
  /** Default: video. */
  type?: SessionType;
  /** Default: the cast's participant alone. */
  scope?: Scope;
  owner?: CastName;
}

/** An S3-compatible server (s3rver, as `npm start` runs it) on a free loopback port. */
export interface TestS3 {
  endpoint: string;
  dir: string;
  /**
   * Stops it as a crashed store stops: the server closes (new connections are refused) and every
   * open connection is destroyed, mid-request or not. Its objects stay on disk.
   */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the objects it had (nothing when it is running). */
  start(): Promise<void>;
  /** Calls `listener` with each request the store receives, until the returned function is called. */
  onRequest(listener: (req: http.IncomingMessage) => void): () => void;
  close(): Promise<void>;
}

export async function startS3(): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-content-s3-'));
  const s3rver = new S3rver({ directory: dir, silent: true, configureBuckets: [] });
  const handle = s3rver.callback();
  const listeners = new Set<(req: http.IncomingMessage) => void>();
  let server: http.Server | null = null;
  let port = 0;
  const start = async () => {
    if (server) return;
    const next = http.createServer((req, res) => {
      for (const listener of listeners) listener(req);
      handle(req, res);
    });
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
    port = (next.address() as { port: number }).port;
    server = next;
  };
  const stop = async () => {
    const running = server;
    if (!running) return;
    server = null;
    const closed = new Promise<void>((resolve) => running.close(() => resolve()));
    running.closeAllConnections();
    await closed;
  };
  await start();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    dir,
    stop,
    start,
    onRequest(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A stand-in for studies' access endpoint, served by the kit exactly like the real one (proto route,
 * service-token guard), answering from a table the test controls and failing on demand. The main
 * tests run against the real studies; this one is for what the real one cannot do on purpose (fail).
 */
export class StudiesStandIn {
  static sessions = new Map<string, { ownerId: string; type: SessionType; scope: string[] | null }>();
  static failures = 0;
  static calls = 0;
}

@Controller()
class StudiesAccessStandIn {
  @InternalEndpoint(internalRoutes.studiesAccess)
  access(@Input() { sessionId, userId, email }: ParsedInternalRequestOf<'studiesAccess'>): SessionAccess {
    StudiesStandIn.calls++;
    if (StudiesStandIn.failures > 0) {
      StudiesStandIn.failures--;
      throw new Error('studies stand-in failing on purpose');
    }
    const session = StudiesStandIn.sessions.get(sessionId);
    if (!session) return { role: 'none', sessionType: null };
    const role =
      session.ownerId === userId
        ? 'owner'
        : session.scope === null || session.scope.includes(email)
          ? 'participant'
          : 'none';
    return { role, sessionType: session.type };
  }
}

const studiesStandIn = defineService({
  name: 'studies',
  env: serviceEnv,
  imports: () => [{ module: class StudiesStandInModule {}, controllers: [StudiesAccessStandIn] }],
});

/** Kit's test world (the cast, `as`, `person`, `session`), with content and studies (real or a stand-in) behind it. */
export interface ContentHarness extends Omit<TestWorld, 'session' | 'editSession'> {
  env: Record<string, string>;
  db: TestDatabase;
  s3: TestS3;
  content: INestApplication;
  /** supertest on content, as the gateway would reach it. */
  http: () => ReturnType<typeof request>;
  /** supertest on studies (real mode): to change sessions the way the editor does. */
  studiesHttp: () => ReturnType<typeof request>;
  /** A session (a video session by default), in studies or in the stand-in's table. */
  session(options?: SessionOptions): Promise<string>;
  editSession(sessionId: string, edit: { type?: SessionType; scope?: Scope }): Promise<void>;
  /** Object keys in the bucket (under `prefix`). */
  objects(prefix?: string): Promise<string[]>;
  /** Files left in the upload spool directory. */
  spooled(): string[];
  /** A second content app on the same database and bucket with other settings (e.g. a small size limit). */
  contentWith(overrides: Record<string, string>): Promise<{
    url: string;
    app: INestApplication;
    http: () => ReturnType<typeof request>;
    close(): Promise<void>;
  }>;
  close(): Promise<void>;
}

/** Serves an app on a server that exists (and has its port) before the app is built. */
function lateServer() {
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  return {
    server,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    serve(app: INestApplication) {
      handler = app.getHttpAdapter().getInstance() as http.RequestListener;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Real studies, asking content (this harness's) to delete a session's data, as deployment will. */
async function realStudies(env: Record<string, string>): Promise<INestApplication> {
  return createAppWithOverrides(studiesService, env, [[SESSION_DATA_OWNER_LIST, ['content']]]);
}

/**
 * Content on the real Postgres (a database of its own) and a real S3-compatible server, with studies
 * answering its access checks: the real studies service by default, or the stand-in.
 */
export async function startContent(
  label: string,
  options: { studies?: 'real' | 'stand-in'; env?: Record<string, string> } = {},
): Promise<ContentHarness> {
  const mode = options.studies ?? 'real';
  const [db, s3] = await Promise.all([createTestDatabase(`content_${label}`), startS3()]);
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-content-spool-'));
  const contentServer = lateServer();
  const studiesServer = lateServer();
  const [contentUrl, studiesUrl] = await Promise.all([contentServer.listen(), studiesServer.listen()]);
  const env: Record<string, string> = {
    ...testSecrets(),
    DATABASE_URL: db.url,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
    S3_BUCKET: `uis-videos-${randomSuffix()}`,
    UPLOAD_TMP_DIR: spoolDir,
    CONTENT_URL: contentUrl,
    STUDIES_URL: studiesUrl,
    LOG_LEVEL: 'silent',
    ...options.env,
  };

  const studies = mode === 'real' ? await realStudies(env) : await studiesStandIn.createApp(env);
  studiesServer.serve(studies);
  const content = await contentService.createApp(env);
  contentServer.serve(content);

  const http = () => request(contentServer.server);
  const studiesHttp = () => request(studiesServer.server);
  const world = testWorld({ jwtSecret: env.JWT_SECRET!, studies: studiesHttp });

  const s3Client = new Client({
    endPoint: '127.0.0.1',
    port: Number(new URL(s3.endpoint).port),
    useSSL: false,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
    pathStyle: true,
  });

  const standInScope = (scope: Scope) => {
    const emails = scopeOf(scope);
    return emails === EVERYONE ? null : emails;
  };

  const harness: ContentHarness = {
    ...world,
    env,
    db,
    s3,
    content,
    http,
    studiesHttp,
    async session({ type = 'video', scope = [world.users.participant.email], owner = 'owner' } = {}) {
      if (mode === 'real') return world.session({ type, scope, owner });
      const sessionId = randomUUID();
      StudiesStandIn.sessions.set(sessionId, {
        ownerId: world.users[owner].id,
        type,
        scope: standInScope(scope),
      });
      return sessionId;
    },
    async editSession(sessionId, edit) {
      // As the session editor does it: the owner edits through studies (which tells content what changed).
      if (mode === 'real') return world.editSession(sessionId, edit);
      const session = StudiesStandIn.sessions.get(sessionId)!;
      if (edit.type) session.type = edit.type;
      if (edit.scope !== undefined) session.scope = standInScope(edit.scope);
    },
    async objects(prefix = '') {
      const keys: string[] = [];
      for await (const item of s3Client.listObjectsV2(env.S3_BUCKET!, prefix, true)) {
        const { name } = item as { name?: string };
        if (name) keys.push(name);
      }
      return keys.sort();
    },
    spooled: () => fs.readdirSync(spoolDir),
    async contentWith(overrides) {
      const server = lateServer();
      const url = await server.listen();
      const app = await contentService.createApp({ ...env, ...overrides });
      server.serve(app);
      return {
        url,
        app,
        http: () => request(server.server),
        async close() {
          await server.close();
          await app.close();
        },
      };
    },
    async close() {
      await Promise.all([contentServer.close(), studiesServer.close()]);
      await Promise.all([content.close(), studies.close()]);
      await s3.close();
      await db.drop();
      fs.rmSync(spoolDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** An ISO-BMFF box of `size` bytes (header included) with a body of filler. */
export const box = (type: string, size: number, fill = 0) => {
  const bytes = Buffer.alloc(size, fill);
  bytes.writeUInt32BE(size, 0);
  bytes.write(type, 4, 'latin1');
  return bytes;
};

/** The fixture's ftyp and moov boxes (its first two): the least a file needs to pass as an MP4. */
const FIXTURE_HEAD = (() => {
  const moovAt = FIXTURE_MP4.readUInt32BE(0);
  return FIXTURE_MP4.subarray(0, moovAt + FIXTURE_MP4.readUInt32BE(moovAt));
})();

/**
 * A well-formed MP4 of exactly `size` bytes, made of the fixture and a `free` box: the fixture itself
 * (playable) when there is room for it and the box, else its ftyp and moov alone (structurally valid).
 */
export const mp4OfSize = (size: number): Buffer => {
  const base = size >= FIXTURE_MP4.length + 8 ? FIXTURE_MP4 : FIXTURE_HEAD;
  if (size === FIXTURE_MP4.length) return FIXTURE_MP4;
  if (size < base.length + 8) throw new Error(`an MP4 made from the fixture cannot be ${size} bytes`);
  return Buffer.concat([base, box('free', size - base.length, 7)]);
};

/** A valid PNG's first bytes: a real file of another kind, to be renamed .mp4. */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);

export interface UploadOptions {
  as?: CastName;
  name?: string;
  bytes?: Buffer;
  /** Where sessionId goes in the form: before the file (as the web app sends it), after, or not at all. */
  sessionIdField?: 'first' | 'last' | 'none';
}

/** /uploadVideo through supertest (multipart with a Content-Length, like a browser's FormData). */
export function upload(
  http: () => ReturnType<typeof request>,
  token: string | undefined,
  sessionId: string,
  { name = 'clip.mp4', bytes = FIXTURE_MP4, sessionIdField = 'first' }: Omit<UploadOptions, 'as'> = {},
) {
  const req = http().post('/uploadVideo');
  if (token) void req.set('authorization', `Bearer ${token}`);
  if (sessionIdField === 'first') void req.field('sessionId', sessionId);
  void req.attach('file', bytes, { filename: name, contentType: 'video/mp4' });
  if (sessionIdField === 'last') void req.field('sessionId', sessionId);
  return req;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { status: string; res: { message: string; code?: string } };
}

/**
 * A multipart upload written by hand on a raw connection: the test decides what the headers claim
 * and when (or whether) the body ends, to see that the server answers before the upload is over.
 */
export function rawUpload(
  baseUrl: string,
  token: string,
  options: { headers?: Record<string, string | number>; chunks: Buffer[]; end: boolean },
): {
  answer: Promise<RawAnswer>;
  abort: () => void;
  /** Sends the rest of the body and ends it (for a body started with `end: false`). */
  finish: (chunks: Buffer[]) => void;
} {
  const url = new URL('/uploadVideo', baseUrl);
  const req = http.request(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...options.headers,
    },
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RawAnswer['body'],
        });
      });
    });
  });
  for (const chunk of options.chunks) req.write(chunk);
  if (options.end) req.end();
  else req.flushHeaders();
  return {
    answer,
    abort: () => req.destroy(),
    finish: (chunks) => {
      for (const chunk of chunks) req.write(chunk);
      req.end();
    },
  };
}

export const BOUNDARY = 'uis-test-boundary-7d1f';

/** The `res` of a SUCCESS answer, typed for the test's expectations. */
/** A supertest parser that keeps the answer's body as bytes (`.buffer(true).parse(bytesOf)`): a video, as served. */
export const bytesOf = (res: SuperagentResponse, done: (error: Error | null, body: Buffer) => void) => {
  // In Node the response is the incoming message stream.
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};
export const resOf = <T>(res: { body: unknown }): T => (res.body as { res: T }).res;
export const actionsOf = (res: { body: unknown }) => resOf<{ actions: Action[] }>(res).actions;
export const promptsOf = (res: { body: unknown }) => resOf<{ prompts: Prompt[] }>(res).prompts;
export const formField = (name: string, value: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
export const fileHeader = (name: string, filename: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
export const formEnd = () => Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
