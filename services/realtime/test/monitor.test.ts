import { TEST_REDIS_URL, freePort, randomSuffix, waitFor } from '@uis/kit/testing';
import {
  PRESENCE_HEARTBEAT_MS,
  PRESENCE_TTL_MS,
  type MonitorSnapshot,
  type MonitoredParticipant,
} from '@uis/proto';
import { LiveStack, type TestPerson, type Replica } from './support/live-stack';
import { ChildService, buildRealtime, startRealtimeProcess } from './support/processes';
import { RecordingConnection } from './support/recording-connection';

/** The monitor must show a participant gone this soon after their replica dies. */
const GONE_WITHIN_MS = 5_000;

/**
 * The researcher's monitor across replicas: B runs in this process, A is a real process killed
 * with SIGKILL, so its sockets end without a goodbye, as on a crashed machine.
 */
describe('the live monitor', () => {
  let stack: LiveStack;
  let a: ChildService;
  let b: Replica;
  let urlA: string;
  let researcher: TestPerson;
  const clients: RecordingConnection[] = [];
  const connect = async (url: string, person: TestPerson) => {
    const client = new RecordingConnection(url, { token: person.token });
    clients.push(client);
    return client.connected();
  };

  beforeAll(async () => {
    buildRealtime();
    stack = await LiveStack.start('monitor');
    const redis = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `uis-test:${randomSuffix()}` };
    const portA = await freePort();
    [a, b] = await Promise.all([
      startRealtimeProcess({ ...stack.env, ...redis, LOG_LEVEL: 'warn' }, portA),
      stack.replica(redis),
    ]);
    urlA = `http://127.0.0.1:${portA}`;
    researcher = stack.person('researcher', { name: 'Rhea Researcher' });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await a?.kill();
    await b?.close();
    await stack?.close();
  });

  const snapshot = async (owner: RecordingConnection, sessionId: string): Promise<MonitorSnapshot> => {
    const answer = await owner.ask('monitor', { sessionId });
    if (answer.status !== 'SUCCESS') throw new Error(answer.res.message);
    return answer.res;
  };
  const row = (snap: MonitorSnapshot, name: string): MonitoredParticipant | undefined =>
    snap.participants.find((p) => p.name === name);

  it('shows who joined on either replica, their drift and call, and who left, also when a replica dies', async () => {
    const pat = stack.person('participant', { name: 'Pat' });
    const sam = stack.person('participant', { name: 'Sam' });
    const sessionId = await stack.session({ owner: researcher, scope: [pat, sam] });
    const owner = await connect(b.url, researcher);
    expect(await owner.join(sessionId)).toMatchObject({ status: 'SUCCESS' });
    expect((await snapshot(owner, sessionId)).participants).toEqual([]);

    const joinedAt = Date.now();
    const [patOnA, samOnB] = await Promise.all([connect(urlA, pat), connect(b.url, sam)]);
    for (const client of [patOnA, samOnB])
      expect(await client.join(sessionId)).toMatchObject({ status: 'SUCCESS' });
    let snap = await snapshot(owner, sessionId);
    expect(snap.participants.map((p) => [p.name, p.connected, p.reconnects, p.leftAt])).toEqual([
      ['Pat', true, 0, null],
      ['Sam', true, 0, null],
    ]);
    expect(row(snap, 'Pat')).toMatchObject({ email: pat.user.email, playback: null, call: null });
    expect(row(snap, 'Pat')!.since).toBeGreaterThanOrEqual(joinedAt - 1000);
    // The researcher is not a participant of their own monitor, and nobody else may read it.
    expect(await samOnB.ask('monitor', { sessionId })).toMatchObject({
      status: 'ERROR',
      res: { code: 'FORBIDDEN' },
    });

    // The researcher plays from 10 s; Pat is 250 ms ahead, Sam 400 ms behind and muted in the call.
    const at = Date.now();
    expect(await owner.ask('videoStatus', { sessionId, paused: false, currentTime: 10, at })).toMatchObject({
      status: 'SUCCESS',
    });
    const reportAt = at + 2000;
    await patOnA.ask('presenceReport', {
      sessionId,
      playback: { currentTime: 12.25, paused: false, at: reportAt },
    });
    await samOnB.ask('presenceReport', {
      sessionId,
      playback: { currentTime: 11.6, paused: false, at: reportAt },
      call: { connected: true, muted: true },
    });
    snap = await snapshot(owner, sessionId);
    expect(row(snap, 'Pat')!.playback).toEqual({
      currentTime: 12.25,
      paused: false,
      at: reportAt,
      driftMs: 250,
    });
    expect(row(snap, 'Sam')).toMatchObject({
      playback: { driftMs: -400 },
      call: { connected: true, muted: true },
    });
    // A second report within PRESENCE_REPORT_MS is dropped: the monitor costs the same however often a client says.
    await samOnB.ask('presenceReport', { sessionId, call: { connected: true, muted: false } });
    expect(row(await snapshot(owner, sessionId), 'Sam')!.call).toEqual({ connected: true, muted: true });

    // Sam leaves (a closed tab): gone at once, with when.
    const closedAt = Date.now();
    samOnB.close();
    const samGone = await waitFor(async () => {
      const sam = row(await snapshot(owner, sessionId), 'Sam');
      return sam && !sam.connected ? sam : null;
    }, 'Sam shown as left');
    expect(samGone.leftAt).toBeGreaterThanOrEqual(closedAt - 50);
    expect(samGone).toMatchObject({ since: null, playback: null });

    // Pat's replica dies: no goodbye reaches anyone; the monitor shows Pat gone within 5 s.
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    await waitFor(
      async () => row(await snapshot(owner, sessionId), 'Pat')?.connected === false,
      'Pat shown as left after the replica died',
      GONE_WITHIN_MS + 1000,
    );
    const goneAfterMs = Date.now() - killedAt;
    expect(goneAfterMs).toBeLessThan(GONE_WITHIN_MS);
    expect(goneAfterMs).toBeGreaterThan(PRESENCE_TTL_MS - 1500);
    console.info(`monitor: a participant on a killed replica shown as left after ${goneAfterMs} ms`);
    patOnA.close();
    // A dead replica said nothing: Pat left at its last heartbeat for Pat, at most one beat before.
    const patGone = row(await snapshot(owner, sessionId), 'Pat')!;
    expect(patGone.leftAt).toBeLessThanOrEqual(killedAt);
    expect(patGone.leftAt).toBeGreaterThanOrEqual(killedAt - PRESENCE_HEARTBEAT_MS - 500);

    // Sam comes back: connected again, and counted as a reconnect.
    const back = await connect(b.url, sam);
    expect(await back.join(sessionId)).toMatchObject({ status: 'SUCCESS' });
    snap = await snapshot(owner, sessionId);
    expect(snap.participants.map((p) => [p.name, p.connected, p.reconnects])).toEqual([
      ['Sam', true, 1],
      ['Pat', false, 0],
    ]);
  });
});
