import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Controller, type INestApplication } from '@nestjs/common';
import { ConfigError, Input, InternalEndpoint, defineService, serviceEnv } from '@uis/kit';
import {
  createTestDatabase,
  freePort,
  lateBoundServer,
  testSecrets,
  testWorld,
  type LateBoundServer,
  type TestDatabase,
  type TestPerson,
} from '@uis/kit/testing';
import { internalRoutes, routes, type CallSettings, type ParsedInternalRequestOf } from '@uis/proto';
import { studiesService } from '@uis/studies';
import request from 'supertest';
import {
  PUBLIC_STUN_SERVERS,
  PUBLIC_TURN_SERVERS,
  freeUdpPortRange,
  signalService,
  startCoturn,
  type RunningCoturn,
} from '../src';

/**
 * GET /getCallSettings with the real studies service deciding who is in a session, and Debian's
 * coturn judging the TURN credentials it hands out (turnutils_uclient, coturn's own client,
 * allocates a relay with them): the owner and the participants in scope get credentials coturn
 * accepts; nobody else gets any; a tampered or expired credential is refused by coturn. Also the
 * configuration: the defaults, and every refusal at boot.
 */

/** Content's one endpoint studies calls here: the video removal on a change of type to chat. */
@Controller()
class ContentStandIn {
  @InternalEndpoint(internalRoutes.contentVideoDelete)
  remove(@Input() _: ParsedInternalRequestOf<'contentVideoDelete'>) {
    return { message: 'No video.' };
  }
}
const contentStandIn = defineService({
  name: 'content',
  env: serviceEnv,
  imports: () => [{ module: class ContentStandInModule {}, controllers: [ContentStandIn] }],
});

const TTL_SECONDS = 7_200;
const TURN_SECRET = 'a-turn-secret-of-this-test-only-0123456789';
const hmac = (secret: string, username: string) =>
  createHmac('sha1', secret).update(username).digest('base64');

/** coturn's own client allocates a relay and sends through it: exit 0 when the credentials were accepted. */
function allocates(port: number, username: string, credential: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      'turnutils_uclient',
      [
        '-p',
        String(port),
        '-u',
        username,
        '-w',
        credential,
        '-y',
        '-n',
        '1',
        '-m',
        '1',
        '-l',
        '100',
        '127.0.0.1',
      ],
      { timeout: 20_000 },
      (error) => resolve(error === null),
    );
  });
}

describe('call settings: TURN credentials for the people of a session', () => {
  const secrets = { ...testSecrets(), LOG_LEVEL: 'silent' };
  const studiesHttp = () => request(studies.getHttpServer() as Parameters<typeof request>[0]);
  const world = testWorld({ jwtSecret: secrets.JWT_SECRET, studies: studiesHttp });
  const [owner, participant, outsider, otherResearcher] = [
    world.as('owner'),
    world.as('participant'),
    world.as('outsider'),
    world.as('otherResearcher'),
  ];
  let db: TestDatabase;
  let studies: INestApplication;
  let studiesServer: LateBoundServer;
  let content: INestApplication;
  let coturn: RunningCoturn;
  let coturnDir: string;
  let turnPort: number;
  let signal: INestApplication;
  let signalEnv: Record<string, string>;
  let chatSession: string;
  let videoSession: string;

  const settingsOf = (app: INestApplication, sessionId: string, person?: TestPerson) =>
    request(app.getHttpServer() as Parameters<typeof request>[0])
      .get(routes.getCallSettings.path)
      .query({ sessionId })
      .set(person ? person.headers : {});

  const newSession = (type: 'chat' | 'video') => world.session({ type, scope: [participant] });

  beforeAll(async () => {
    db = await createTestDatabase('signal_call_settings');
    content = await contentStandIn.createApp(secrets);
    await content.listen(0, '127.0.0.1');
    studiesServer = await lateBoundServer();
    const base = {
      ...secrets,
      DATABASE_URL: db.url,
      STUDIES_URL: studiesServer.url,
      CONTENT_URL: (await content.getUrl()).replace('[::1]', '127.0.0.1'),
    };
    studies = await studiesService.createApp(base);
    await studiesServer.serve(studies);

    turnPort = await freePort();
    coturnDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-signal-coturn-'));
    coturn = await startCoturn({
      secret: TURN_SECRET,
      ip: '127.0.0.1',
      port: turnPort,
      relayPorts: await freeUdpPortRange(20),
      dir: coturnDir,
      oneMachine: true,
    });
    signalEnv = {
      ...base,
      TURN_URLS: `${coturn.url}, turn:127.0.0.1:${turnPort}?transport=tcp`,
      TURN_SECRET,
      TURN_CREDENTIAL_TTL_SECONDS: String(TTL_SECONDS),
    };
    signal = await signalService.createApp(signalEnv);
    chatSession = await newSession('chat');
    videoSession = await newSession('video');
  }, 60_000);

  afterAll(async () => {
    await Promise.all([
      signal?.close(),
      studies?.close(),
      studiesServer?.close(),
      content?.close(),
      coturn?.stop(),
    ]);
    await db?.drop();
    if (coturnDir) fs.rmSync(coturnDir, { recursive: true, force: true });
  });

  it.each([
    ['the owner', () => owner],
    ['a participant in scope', () => participant],
  ])(
    'gives %s the public STUN server and our TURN server with credentials coturn accepts',
    async (_, who) => {
      const person = who();
      const before = Math.floor(Date.now() / 1000);
      const res = await settingsOf(signal, chatSession, person).expect(200);
      const settings = res.body.res as CallSettings;
      expect(settings.iceTransportPolicy).toBe('all');
      expect(settings.peerPath).toBe('/stream');
      // Our own TURN server takes the public one's place; the public STUN server stays.
      expect(settings.iceServers.slice(0, -1)).toEqual(PUBLIC_STUN_SERVERS);
      const turn = settings.iceServers.at(-1)!;
      expect(turn.urls).toEqual([coturn.url, `turn:127.0.0.1:${turnPort}?transport=tcp`]);

      // `<expiry>:<user id>`, expiring TURN_CREDENTIAL_TTL_SECONDS from now; the HMAC of the username.
      const [expiry, userId] = turn.username!.split(':');
      expect(userId).toBe(person.user.id);
      expect(Number(expiry)).toBeGreaterThanOrEqual(before + TTL_SECONDS);
      expect(Number(expiry)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + TTL_SECONDS);
      expect(settings.expiresAt).toBe(Number(expiry) * 1000);
      expect(turn.credential).toBe(hmac(TURN_SECRET, turn.username!));
      // The secret itself never leaves the server.
      expect(res.text).not.toContain(TURN_SECRET);

      expect(await allocates(turnPort, turn.username!, turn.credential!)).toBe(true);
    },
    30_000,
  );

  it('gives each caller credentials naming them', async () => {
    const first = (await settingsOf(signal, chatSession, participant).expect(200)).body.res as CallSettings;
    const mine = (await settingsOf(signal, chatSession, owner).expect(200)).body.res as CallSettings;
    expect(first.iceServers.at(-1)!.username).toMatch(new RegExp(`:${participant.user.id}$`));
    expect(mine.iceServers.at(-1)!.username).toMatch(new RegExp(`:${owner.user.id}$`));
  });

  it.each([
    ['a participant out of scope', 403, () => outsider],
    ['another researcher', 403, () => otherResearcher],
    ['an anonymous caller', 401, () => undefined],
  ])('gives %s no credentials (%d)', async (_, status, who) => {
    const res = await settingsOf(signal, chatSession, who()).expect(status);
    expect(res.body.status).toBe('ERROR');
    expect(res.text).not.toMatch(/credential|turn:/);
  });

  it('answers for chat sessions only: a video session has no call, so none of its people get credentials', async () => {
    for (const person of [participant, owner, outsider]) {
      const res = await settingsOf(signal, videoSession, person).expect(403);
      expect(res.text).not.toMatch(/credential|turn:/);
    }
    await settingsOf(signal, '6f1c2a8e-0d7b-4c1e-9a53-2b8f4e7d9c10', participant).expect(404);
    await settingsOf(signal, '6f1c2a8e-0d7b-4c1e-9a53-2b8f4e7d9c10', participant).expect(404);
    const malformed = await settingsOf(signal, 'not-a-session', participant).expect(400);
    expect(malformed.body.res.message).toMatch(/sessionId/);
    await request(signal.getHttpServer() as Parameters<typeof request>[0])
      .get(routes.getCallSettings.path)
      .set(participant.headers)
      .expect(400);
  });

  it('gives a participant none until they agree to the consent text, then gives them theirs', async () => {
    const sessionId = await newSession('chat');
    const consent = await studiesHttp()
      .post('/setSessionConsent')
      .set(owner.headers)
      .send({ sessionId, text: 'I agree to be recorded.' })
      .expect(200);
    const refused = await settingsOf(signal, sessionId, participant).expect(403);
    expect(refused.body.res.code).toBe('CONSENT_REQUIRED');
    expect(refused.text).not.toMatch(/credential|turn:/);
    await studiesHttp()
      .post('/acceptConsent')
      .set(participant.headers)
      .send({ sessionId, sha256: consent.body.res.consent.sha256 })
      .expect(200);
    await settingsOf(signal, sessionId, participant).expect(200);
  });

  it('coturn refuses a credential with a wrong HMAC, and one that has expired', async () => {
    const fresh = `${Math.floor(Date.now() / 1000) + 600}:${participant.user.id}`;
    expect(await allocates(turnPort, fresh, hmac(TURN_SECRET, fresh))).toBe(true);
    expect(await allocates(turnPort, fresh, hmac('not-the-secret-of-this-coturn-0123456789', fresh))).toBe(
      false,
    );
    const expired = `${Math.floor(Date.now() / 1000) - 60}:${participant.user.id}`;
    expect(await allocates(turnPort, expired, hmac(TURN_SECRET, expired))).toBe(false);
  }, 60_000);

  describe('configuration', () => {
    const withEnv = async (
      env: Record<string, string | undefined>,
      check: (app: INestApplication) => Promise<void>,
    ) => {
      const app = await signalService.createApp({ ...signalEnv, TURN_URLS: '', TURN_SECRET: '', ...env });
      try {
        await check(app);
      } finally {
        await app.close();
      }
    };

    it('without ICE_SERVERS nor a TURN server of ours: the public STUN and TURN servers, nothing expiring', async () => {
      for (const ICE_SERVERS of [undefined, '  ']) {
        await withEnv({ ICE_SERVERS }, async (app) => {
          const settings = (await settingsOf(app, chatSession, participant).expect(200)).body
            .res as CallSettings;
          expect(settings.iceServers).toEqual([...PUBLIC_STUN_SERVERS, ...PUBLIC_TURN_SERVERS]);
          expect(settings.expiresAt).toBeNull();
        });
      }
    });

    it('with ICE_SERVERS: exactly those (`[]`: none, peers on one network only), and ICE_TRANSPORT_POLICY', async () => {
      const servers = [{ urls: 'stun:stun.example.org:3478' }];
      await withEnv({ ICE_SERVERS: JSON.stringify(servers) }, async (app) => {
        const settings = (await settingsOf(app, chatSession, owner).expect(200)).body.res as CallSettings;
        expect(settings).toMatchObject({ iceServers: servers, iceTransportPolicy: 'all', expiresAt: null });
      });
      await withEnv({ ICE_SERVERS: '[]' }, async (app) => {
        expect((await settingsOf(app, chatSession, owner).expect(200)).body.res.iceServers).toEqual([]);
      });
      await withEnv(
        { TURN_URLS: signalEnv.TURN_URLS, TURN_SECRET, ICE_SERVERS: '[]', ICE_TRANSPORT_POLICY: 'relay' },
        async (app) => {
          const settings = (await settingsOf(app, chatSession, owner).expect(200)).body.res as CallSettings;
          expect(settings.iceTransportPolicy).toBe('relay');
          expect(settings.iceServers).toHaveLength(1);
          expect(settings.iceServers[0]!.username).toMatch(/^\d+:/);
        },
      );
    });

    it.each([
      [
        'TURN_URLS without TURN_SECRET',
        { TURN_URLS: 'turn:turn.example.org:3478' },
        /TURN_SECRET: is required with TURN_URLS/,
      ],
      ['TURN_SECRET without TURN_URLS', { TURN_SECRET }, /TURN_URLS: is required with TURN_SECRET/],
      [
        'a short TURN_SECRET',
        { TURN_URLS: 'turn:t.example.org', TURN_SECRET: 'short' },
        /TURN_SECRET: must be at least 32/,
      ],
      [
        'a TURN_URLS entry that is no TURN URL',
        { TURN_URLS: 'stun:s.example.org', TURN_SECRET },
        /TURN_URLS\.0: must be turn: or turns:/,
      ],
      [
        'a TTL under a minute',
        { TURN_CREDENTIAL_TTL_SECONDS: '30' },
        /TURN_CREDENTIAL_TTL_SECONDS: must be at least 60/,
      ],
      [
        'a TTL that is no number',
        { TURN_CREDENTIAL_TTL_SECONDS: 'long' },
        /TURN_CREDENTIAL_TTL_SECONDS: must be a number/,
      ],
      [
        'an unknown ICE_TRANSPORT_POLICY',
        { ICE_TRANSPORT_POLICY: 'direct' },
        /ICE_TRANSPORT_POLICY: must be all or relay/,
      ],
      [
        'relay only without any TURN server',
        { ICE_SERVERS: '[]', ICE_TRANSPORT_POLICY: 'relay' },
        /ICE_TRANSPORT_POLICY: relay needs a TURN server/,
      ],
      [
        'ICE_SERVERS that is not JSON',
        { ICE_SERVERS: 'stun:stun.example.org' },
        /ICE_SERVERS: must be a JSON array of RTCIceServer/,
      ],
      [
        'ICE_SERVERS as an object',
        { ICE_SERVERS: '{"urls":"stun:a.example.org"}' },
        /ICE_SERVERS: must be a JSON array/,
      ],
      [
        'an ICE_SERVERS URL that is not stun/turn',
        { ICE_SERVERS: '[{"urls":"https://a.example.org"}]' },
        /ICE_SERVERS\.0\.urls/,
      ],
      [
        'a TURN server in ICE_SERVERS without credentials',
        { ICE_SERVERS: '[{"urls":"turn:t.example.org"}]' },
        /ICE_SERVERS\.0: a TURN server needs/,
      ],
      [
        'a misspelt key in ICE_SERVERS',
        { ICE_SERVERS: '[{"urls":"stun:a.example.org","credentials":"x"}]' },
        /ICE_SERVERS\.0: .*credentials/,
      ],
    ])('refuses to boot with %s, saying why', async (_, env, message) => {
      const started = signalService.createApp({ ...secrets, ...env });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(message);
    });
  });
});
