import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  apiClient,
  createTestDatabase,
  freePort,
  randomSuffix,
  TEST_REDIS_URL,
  TINY_MP4,
  waitFor,
  type TestDatabase,
} from '@uis/kit/testing';
import {
  API_DOCS_PATH,
  API_PORT,
  APP_CONFIG_PATH,
  DEFAULT_APP_CONFIG,
  PRESENCE_TTL_MS,
  peerIdFor,
  routeList,
  routes,
  videoAssetPath,
  type RequestOf,
  type ServiceName,
  type StampedVideoStatus,
} from '@uis/proto';
import { LiveConnection } from '@uis/live-client';
import { registerPeer } from '@uis/signal/testing';
import request from 'supertest';
import { Lifecycle } from '../launcher/src/lifecycle';
import { assertPortFree } from '../launcher/src/ports';
import { startStack, type Stack } from '../launcher/src/stack/stack';
import { launchChromium, seekVideo, signedInContext } from './support/stack-browser';

/**
 * `npm run stack` end to end, through the gateway's TLS port only: each service its own process from
 * its built main, two realtime replicas on Redis, the mail worker, nginx in front. What a person does
 * (sign in by mail, make a session, upload and play a video, chat, join a call) and what an attacker
 * tries (/internal/, the services' own health and metrics) go through nginx as in a deployment.
 */

const MP4 = fs.readFileSync(TINY_MP4);
const STARTS_WITHIN_MS = 180_000;
const GOOGLE_CLIENT_ID = '1234-stack.apps.googleusercontent.com';
/** The monitor must show a participant gone this soon after their replica dies. */
const GONE_WITHIN_MS = 5_000;

/** The spec's 8443 when it is free (a developer's `npm start` may hold it); any free port otherwise. */
async function gatewayPort(): Promise<number> {
  try {
    await assertPortFree({ port: API_PORT, envName: 'GATEWAY_PORT', host: '127.0.0.1' });
    return API_PORT;
  } catch {
    return freePort();
  }
}

/** A replica's live_sockets gauge, read from its own /metrics (not routed by the gateway). */
async function liveSockets(replicaUrl: string): Promise<number> {
  const text = await (await fetch(`${replicaUrl}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith('live_sockets'));
  return Number(line?.split(' ').pop() ?? Number.NaN);
}

describe('npm run stack: every service its own process behind the nginx gateway', () => {
  const lifecycle = new Lifecycle(() => undefined);
  const lines: { label: string; line: string }[] = [];
  let db: TestDatabase;
  let stack: Stack;
  let scratch: string;
  const live = new Set<LiveConnection>();

  /** The gateway, checking its certificate against the stack's own. */
  const gateway = () => request.agent(stack.url).ca(stack.ca);
  /** Proto's routes by name, through the gateway. */
  const api = () => apiClient(gateway);

  let researcher: { accessToken: string; id: string };
  let sessionId: string;

  /** Signs someone up as a person does: the magic link the SMTP catcher received, then setNewUser. */
  const signUpByMail = async (name: string, type: RequestOf<'setNewUser'>['type']) => {
    const email = `${name.split(' ')[0]!.toLowerCase()}-${randomSuffix()}@stack.test`;
    await api().ok('magicLogin', { destination: email });
    const mail = await stack.mail!.waitForMail(
      (message) => message.text?.includes(encodeURIComponent(email)) ?? false,
    );
    const token = new URL(/https:\/\/\S+/.exec(mail.text ?? '')![0]).searchParams.get('token') ?? '';
    return api().ok('setNewUser', { email, name, type, token });
  };

  /** A new video session of `accessToken`'s (scope Everyone), with the tiny video uploaded. */
  const videoSession = async (accessToken: string, title: string): Promise<string> => {
    const { group } = await api().ok('createGroup', {}, accessToken);
    const { session } = await api().ok('createSession', { groupId: group.group_id }, accessToken);
    const id = session.session_id;
    await api().ok('editSessionInfo', { sessionId: id, title, type: 'video' }, accessToken);
    const upload = await api().upload(
      'uploadVideo',
      { sessionId: id },
      { bytes: MP4, name: 'clip.mp4' },
      accessToken,
    );
    expect(upload.status).toBe(200);
    return id;
  };

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-stack-'));
    db = await createTestDatabase('stack');
    const prefix = `uis-stack-${randomSuffix()}`;
    const port = freePort;
    stack = await startStack(
      {
        dataDir: scratch,
        gatewayPort: await gatewayPort(),
        ports: {
          auth: await port(),
          studies: await port(),
          content: await port(),
          records: await port(),
          mailer: await port(),
          signal: await port(),
          realtime: [await port(), await port()],
        },
        databaseUrl: db.url,
        redisUrl: TEST_REDIS_URL,
        // JSON logs, to follow a request id; Redis keys and queues of this run only.
        env: { LOG_FORMAT: 'json', REDIS_PREFIX: prefix, QUEUE_PREFIX: prefix },
        appConfig: { ...DEFAULT_APP_CONFIG, googleClientId: GOOGLE_CLIENT_ID },
        sink: (label, line) => lines.push({ label, line }),
        log: () => undefined,
      },
      lifecycle,
    );
  }, STARTS_WITHIN_MS);

  afterAll(async () => {
    for (const connection of live) connection.close();
    await lifecycle.stopAll();
    await db?.drop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('signs a researcher in with the magic link the SMTP catcher received', async () => {
    const email = `olga-${randomSuffix()}@stack.test`;
    await api().ok('magicLogin', { destination: email });
    const mail = await stack.mail!.waitForMail(
      (message) => message.text?.includes(encodeURIComponent(email)) ?? false,
    );
    const link = new URL(/https:\/\/\S+/.exec(mail.text ?? '')![0]);
    expect(link.origin).toBe(stack.url);
    // The stack lets anyone sign up as a researcher, as `npm start` does (RESEARCHER_EMAILS=*).
    const token = link.searchParams.get('token') ?? '';
    const pair = await api().ok('setNewUser', { email, name: 'Olga', type: 'researcher', token });
    const { user } = await api().ok('getUserFromToken', {}, pair.accessToken);
    expect(user.type).toBe('researcher');
    researcher = { accessToken: pair.accessToken, id: user.id };
  });

  it('makes a group and a session, uploads a video and plays it back by Range request', async () => {
    const as = researcher.accessToken;
    const { group } = await api().ok('createGroup', {}, as);
    const { session } = await api().ok('createSession', { groupId: group.group_id }, as);
    sessionId = session.session_id;
    await api().ok('editSessionInfo', { sessionId, type: 'video' }, as);
    const upload = await api().upload('uploadVideo', { sessionId }, { bytes: MP4, name: 'clip.mp4' }, as);
    expect(upload.status).toBe(200);
    const { name } = await api().ok('getVideoInfo', { sessionId }, as);

    const part = await gateway()
      .get(videoAssetPath(sessionId, name!))
      .set('authorization', `Bearer ${as}`)
      .set('range', 'bytes=100-199')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${MP4.length}`);
    expect(Buffer.compare(part.body as Buffer, MP4.subarray(100, 200))).toBe(0);
  });

  it('carries a chat message between two clients on different realtime replicas', async () => {
    const [first, second] = stack.serviceUrls.realtime as [string, string];
    const connect = async () => {
      const connection = new LiveConnection({
        url: stack.url,
        accessToken: () => researcher.accessToken,
        extraHeaders: { origin: stack.url },
        socket: { ca: stack.ca.toString(), reconnection: false },
      });
      live.add(connection);
      return connection.connected();
    };
    const ann = await connect();
    await waitFor(
      async () => (await liveSockets(first)) + (await liveSockets(second)) === 1,
      'the first socket on a replica',
    );
    const bob = await connect();
    // The gateway balances sockets by least connections: the second lands on the other replica.
    await waitFor(
      async () => (await liveSockets(first)) === 1 && (await liveSockets(second)) === 1,
      'one socket on each replica',
    );

    await ann.join(sessionId);
    await bob.join(sessionId);
    const words = `hello across replicas ${randomSuffix()}`;
    expect((await ann.send(words)).kind).toBe('acknowledged');
    await waitFor(
      () => bob.state.messages.find((message) => message.message === words),
      'the message on the other replica',
    );
  });

  it('registers a PeerJS peer through /stream/', async () => {
    await api().ok('editSessionInfo', { sessionId, type: 'chat' }, researcher.accessToken);
    const attempt = await registerPeer(
      stack.url,
      peerIdFor(sessionId, researcher.id),
      { bearer: researcher.accessToken },
      { ca: stack.ca },
    );
    if (attempt.kind !== 'connected') throw new Error(`refused: ${JSON.stringify(attempt)}`);
    try {
      expect(await attempt.peer.next()).toEqual({ type: 'OPEN' });
    } finally {
      await attempt.peer.close();
    }
  });

  it("never routes /internal/ or a service's own health, readiness and metrics", async () => {
    for (const service of ['auth', 'studies', 'content', 'records', 'realtime', 'signal'] as ServiceName[]) {
      const answer = await gateway().post(`/internal/${service}/anything`).send({});
      expect([service, answer.status]).toEqual([service, 404]);
    }
    for (const own of ['/health', '/ready', '/metrics']) {
      expect([own, (await gateway().get(own)).status]).toEqual([own, 404]);
      // ...which each service answers on its own port, inside the stack.
      expect((await fetch(`${stack.serviceUrls.studies}${own}`)).status).toBe(200);
    }
    const unknown = await gateway().get('/no-such-route').set('accept', 'application/json');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 'ERROR', res: { code: 'NOT_FOUND' } });
    const app = await gateway().get('/sessions').set('accept', 'text/html');
    expect(app.status).toBe(200);
    expect(app.text).toContain('<div id="root">');
  });

  it('serves the API docs of the web build: the page, its files and the OpenAPI document of every route', async () => {
    const bare = await gateway().get(API_DOCS_PATH).set('accept', 'text/html');
    expect([bare.status, bare.headers.location]).toEqual([301, expect.stringMatching(/\/api\/docs\/$/)]);
    const page = await gateway().get(`${API_DOCS_PATH}/`).set('accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui-bundle.js');
    const script = await gateway().get(`${API_DOCS_PATH}/swagger-ui-bundle.js`).set('accept', '*/*');
    expect([script.status, script.headers['content-type']]).toEqual([
      200,
      expect.stringContaining('javascript'),
    ]);
    const document = await gateway().get(`${API_DOCS_PATH}/openapi.json`).set('accept', 'application/json');
    expect(document.status).toBe(200);
    const operations = Object.values(document.body.paths as Record<string, object>).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>).map(
        (operation) => operation.operationId,
      ),
    );
    expect(operations.sort()).toEqual(routeList.map((route) => route.name).sort());
  });

  it("serves the web app's run-time settings, never cached", async () => {
    const answer = await gateway().get(APP_CONFIG_PATH);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toEqual({ ...DEFAULT_APP_CONFIG, googleClientId: GOOGLE_CLIENT_ID });
  });

  it("follows one request id from the gateway's log through every service it reached", async () => {
    const requestId = `stack-test-${randomSuffix()}`;
    const answer = await gateway()
      .post(routes.deleteSession.path)
      .set('authorization', `Bearer ${researcher.accessToken}`)
      .set('x-request-id', requestId)
      .send({ sessionId });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-request-id']).toBe(requestId);
    // Deleting a session tells the live services and the content and records of it (kit's internal client).
    const reached = () =>
      new Set(lines.filter(({ line }) => line.includes(requestId)).map(({ label }) => label));
    await waitFor(
      () => ['gateway', 'studies', 'content', 'records'].every((label) => reached().has(label)),
      `${requestId} in the logs of the gateway and the services it reached (so far: ${[...reached()].join(', ')})`,
    );
    const studiesLine = lines.find(({ label, line }) => label === 'studies' && line.includes(requestId))!;
    expect(JSON.parse(studiesLine.line)).toMatchObject({ requestId });
  });

  // Last: it kills a realtime replica, which the tests above need.
  it("shows the researcher's monitor, in a browser, a participant leaving within 5 s of their replica's SIGKILL", async () => {
    const [rhea, pat, quinn] = await Promise.all([
      signUpByMail('Rhea Researcher', 'researcher'),
      signUpByMail('Pat Participant', 'participant'),
      signUpByMail('Quinn Participant', 'participant'),
    ]);
    const monitoredId = await videoSession(rhea.accessToken, 'Monitored in the stack');
    // Only this test's sockets from here on, so the gauges say which replica holds whom.
    for (const connection of live) connection.close();
    live.clear();
    const replicas = stack.serviceUrls.realtime;
    const gauges = () => Promise.all(replicas.map(liveSockets));
    await waitFor(
      async () => (await gauges()).every((count) => count === 0),
      'no sockets left on the replicas',
    );

    const browser = await launchChromium();
    try {
      const desk = await (await signedInContext(browser, stack.url, rhea)).newPage();
      await desk.goto(`${stack.url}/liveSession/:${monitoredId}`);
      const monitor = desk.locator('.live-monitor');
      // The monitor asks over the page's socket: answered, the researcher is connected.
      await monitor.getByText('Nobody has joined yet.').waitFor({ timeout: 20_000 });
      // The gateway chose the researcher's replica; Pat goes straight to the other, which is killed,
      // and Quinn to the researcher's, which lives on: the researcher's page keeps its socket.
      const deskReplica = (
        await waitFor(async () => {
          const counts = await gauges();
          return counts.reduce((sum, count) => sum + count, 0) === 1 ? counts : null;
        }, "the researcher's socket on a replica")
      ).indexOf(1);
      const doomedReplica = 1 - deskReplica;
      const doomed = stack.processes.find(({ label }) => label === `realtime-${doomedReplica + 1}`)!;

      const participant = async (person: { accessToken: string }, replicaUrl: string) => {
        const connection = new LiveConnection({
          url: replicaUrl,
          accessToken: () => person.accessToken,
          extraHeaders: { origin: stack.url },
          // A participant whose replica died does not come back in this test: it is gone.
          socket: { reconnection: false },
        });
        live.add(connection);
        await connection.connected();
        expect(await connection.join(monitoredId)).toMatchObject({ status: 'SUCCESS' });
        return connection;
      };
      const [patLink, quinnLink] = await Promise.all([
        participant(pat, replicas[doomedReplica]!),
        participant(quinn, replicas[deskReplica]!),
      ]);
      const placed = await gauges();
      expect([placed[deskReplica], placed[doomedReplica]]).toEqual([2, 1]);
      const row = (name: string, state: 'connected' | 'left') =>
        monitor.getByRole('listitem', { name: `${name}, ${state}` });
      await monitor.locator('summary', { hasText: '2 connected' }).waitFor();
      await row('Pat Participant', 'connected').waitFor();
      await row('Quinn Participant', 'connected').waitFor();

      // The researcher's player stops at a second; each participant, told so, reports a position off it
      // (as their page would): Pat 300 ms ahead, Quinn 200 ms behind, read by whichever replica answers.
      const pausedAt = (connection: LiveConnection, seconds: number) =>
        new Promise<StampedVideoStatus>((resolve) => {
          const hear = (status: StampedVideoStatus) => {
            if (status.sessionId !== monitoredId || !status.paused) return;
            if (Math.abs(status.currentTime - seconds) > 0.05) return;
            connection.socket.off('videoStatus', hear);
            resolve(status);
          };
          connection.socket.on('videoStatus', hear);
        });
      const report = (connection: LiveConnection, currentTime: number) =>
        connection.ask('presenceReport', {
          sessionId: monitoredId,
          playback: { currentTime, paused: true, at: Date.now() },
        });
      const heard = Promise.all([pausedAt(patLink, 1), pausedAt(quinnLink, 1)]);
      await seekVideo(desk, 1);
      const [forPat, forQuinn] = await heard;
      await report(patLink, forPat.currentTime + 0.3);
      await report(quinnLink, forQuinn.currentTime - 0.2);
      await row('Pat Participant', 'connected').filter({ hasText: '+300 ms' }).waitFor();
      await row('Quinn Participant', 'connected').filter({ hasText: '−200 ms' }).waitFor();

      // Pat's replica dies without a goodbye to anyone; the monitor shows Pat left within 5 s.
      const killedAt = Date.now();
      process.kill(doomed.pid, 'SIGKILL');
      await row('Pat Participant', 'left').waitFor({ timeout: GONE_WITHIN_MS + 1000 });
      const goneAfterMs = Date.now() - killedAt;
      console.log(
        `[live-monitor] stack: a participant on a SIGKILLed replica (${doomed.label}; the researcher on realtime-${deskReplica + 1}) shown as left after ${goneAfterMs} ms`,
      );
      expect(await stack.failed).toBe(`${doomed.label} exited (SIGKILL)`);
      expect(goneAfterMs).toBeLessThan(GONE_WITHIN_MS);
      // Not sooner than its last heartbeat's presence could lapse: nothing told anyone Pat left.
      expect(goneAfterMs).toBeGreaterThan(PRESENCE_TTL_MS - 1500);
      await monitor.locator('summary', { hasText: '1 connected, 1 left' }).waitFor();
      await row('Quinn Participant', 'connected').waitFor();

      // The researcher's page lives on: still its socket on its replica, and a seek reaches Quinn
      // there and the monitor's drift (Quinn's last report against the new position).
      expect(await desk.getByText('Reconnecting…').count()).toBe(0);
      expect(await liveSockets(replicas[deskReplica]!)).toBe(2);
      const heardAgain = pausedAt(quinnLink, 0.5);
      await seekVideo(desk, 0.5);
      await heardAgain;
      await row('Quinn Participant', 'connected').filter({ hasText: '+300 ms' }).waitFor();
    } finally {
      await browser.close();
    }
  }, 120_000);
});
