import { DeviceCheck, internalRoutes, type RequestOf } from '@uis/proto';
import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { rawBody, startRecords, type Caller, type RecordsHarness } from './support/records-harness';
import { unzip } from './support/unzip';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('device_checks', { EXPORT_PAGE_ROWS: '2' });
});
afterAll(() => h.close());

type Check = Omit<RequestOf<'saveDeviceCheck'>, 'sessionId'>;
const ALL_PASS: Check = {
  browserName: 'Chrome',
  browserVersion: '131.0.6778.85',
  camera: 'pass',
  microphone: 'pass',
  speakers: 'pass',
  stun: 'pass',
  turn: 'pass',
  rtt: 'pass',
  rttMs: 12,
};

const save = (sessionId: string, check: object, caller: Caller = 'participant') =>
  h
    .http()
    .post('/saveDeviceCheck')
    .set(h.as(caller).headers)
    .send({ sessionId, ...check });

const checksOf = async (sessionId: string) => {
  const res = await h
    .http()
    .get('/getDeviceChecks')
    .set(h.as('owner').headers)
    .query({ sessionId })
    .expect(200);
  return (res.body.res.checks as unknown[]).map((check) => DeviceCheck.parse(check));
};

const exportedChecks = async (sessionId: string) => {
  const res = await h
    .http()
    .get('/exportStudy')
    .set(h.as('owner').headers)
    .query({ sessionId })
    .buffer(true)
    .parse(rawBody)
    .expect(200);
  const file = (await unzip(res.body as Buffer)).find((entry) => entry.name === 'device-checks.csv');
  const text = file!.bytes.toString('utf8');
  return { header: text.split('\r\n')[0], rows: parse<Record<string, string>>(text, { columns: true }) };
};

describe('pre-session device checks', () => {
  it("stores a participant's check under their own name, for the owner to read and export", async () => {
    const sessionId = await h.session();
    const before = Date.now();
    const first = await save(sessionId, { ...ALL_PASS, camera: 'fail', name: 'Not Me' }).expect(200);
    const check = DeviceCheck.parse(first.body.res.check);
    expect(check).toEqual({
      device_check_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      time: expect.any(String),
      userId: h.users.participant.id,
      name: h.users.participant.name,
      email: h.users.participant.email,
      browserName: 'Chrome',
      browserVersion: '131.0.6778.85',
      camera: 'fail',
      microphone: 'pass',
      speakers: 'pass',
      stun: 'pass',
      turn: 'pass',
      rtt: 'pass',
      rttMs: 12,
    });
    expect(Date.parse(check.time)).toBeGreaterThanOrEqual(before - 1000);
    // A second check is kept beside the first; so is the owner's own, and one without a round trip.
    const second = DeviceCheck.parse((await save(sessionId, ALL_PASS).expect(200)).body.res.check);
    const owners = DeviceCheck.parse(
      (await save(sessionId, { ...ALL_PASS, rtt: 'fail', rttMs: null }, 'owner').expect(200)).body.res.check,
    );
    await save(await h.session(), ALL_PASS).expect(200);

    expect(await checksOf(sessionId)).toEqual([check, second, owners]);

    // Three rows across export pages of two, in order.
    const { header, rows } = await exportedChecks(sessionId);
    expect(header).toBe(
      'session_id,device_check_id,participant_id,checked_at,browser_name,browser_version,camera,microphone,speakers,stun,turn,rtt,rtt_ms',
    );
    expect(rows.map((row) => [row.device_check_id, row.session_id, row.camera, row.rtt_ms])).toEqual([
      [check.device_check_id, sessionId, 'fail', '12'],
      [second.device_check_id, sessionId, 'pass', '12'],
      [owners.device_check_id, sessionId, 'pass', ''],
    ]);
    expect(rows[0]).toMatchObject({
      participant_id: expect.stringMatching(/^P-[0-9a-f]{12}$/),
      browser_name: 'Chrome',
    });
    expect(rows[0]!.participant_id).not.toBe(rows[2]!.participant_id);
    expect(rows[0]!.checked_at).toBe(check.time);
  });

  it.each([
    ['outsider', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('is not stored for the %s (%i)', async (caller, status) => {
    const sessionId = await h.session();
    const res = await save(sessionId, ALL_PASS, caller).expect(status);
    expect(res.body.status).toBe('ERROR');
    expect(await checksOf(sessionId)).toEqual([]);
  });

  it.each([
    ['participant', 403],
    ['outsider', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('is read by the owner only, not the %s (%i)', async (caller, status) => {
    const sessionId = await h.session();
    await save(sessionId, ALL_PASS).expect(200);
    const res = await h
      .http()
      .get('/getDeviceChecks')
      .set(h.as(caller).headers)
      .query({ sessionId })
      .expect(status);
    expect(JSON.stringify(res.body)).not.toContain('Chrome');
  });

  it('of an unknown session is 404', async () => {
    const res = await save(randomUUID(), ALL_PASS).expect(404);
    expect(res.body.res.message).toBe('No such session.');
  });

  it.each([
    ['an outcome that is neither pass nor fail', { camera: 'maybe' }, 'camera: must be pass or fail'],
    ['a missing item', { speakers: undefined }, 'speakers: must be pass or fail'],
    ['a blank browser', { browserName: '  ' }, 'browserName: must not be empty'],
    ['a negative round trip', { rttMs: -5 }, 'rttMs: must not be negative'],
    ['a fractional round trip', { rttMs: 1.5 }, 'rttMs: must be a whole number of milliseconds'],
  ])('refuses %s with a 400 and stores nothing', async (_label, bad, message) => {
    const sessionId = await h.session();
    const res = await save(sessionId, { ...ALL_PASS, ...bad }).expect(400);
    expect(res.body.res.message).toContain(message);
    expect(await checksOf(sessionId)).toEqual([]);
  });

  it('goes with its session, and with its author’s account', async () => {
    const [gone, kept] = [await h.session(), await h.session()];
    await save(gone, ALL_PASS).expect(200);
    const keptCheck = DeviceCheck.parse((await save(kept, ALL_PASS, 'owner').expect(200)).body.res.check);
    await save(kept, ALL_PASS).expect(200);
    await h.internal(internalRoutes.recordsSessionDataDelete, { sessionIds: [gone] }).expect(200);
    expect(await checksOf(gone)).toEqual([]);
    const { participant } = h.users;
    await h
      .internal(internalRoutes.recordsUserDataDelete, { userId: participant.id, email: participant.email })
      .expect(200);
    expect(await checksOf(kept)).toEqual([keptCheck]);
  });
});
