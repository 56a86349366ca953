import { invalidPayloadOf } from '@uis/kit/testing';
import { ACCESS_CHECKS_PER_CALL, SERVICE_TOKEN_HEADER, internalRoutes } from '@uis/proto';
import fc from 'fast-check';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

describe('internal endpoints', () => {
  let h: StudiesHarness;
  let service: Record<string, string>;
  let ada: TestPerson;
  beforeAll(async () => {
    h = await startStudies('internal');
    service = { [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! };
    ada = h.person('researcher', { email: 'ada@lab.test' });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.content.reset();
    h.records.reset();
  });

  const newGroup = async (user: TestPerson): Promise<string> =>
    (await h.http().post('/createGroup').set(user.headers).send({}).expect(200)).body.res.group
      .group_id as string;
  const newSession = async (user: TestPerson, groupId: string, edit: Record<string, unknown> = {}) => {
    const sessionId = (await h.http().post('/createSession').set(user.headers).send({ groupId }).expect(200))
      .body.res.session.session_id as string;
    if (Object.keys(edit).length > 0) {
      await h
        .http()
        .post('/editSessionInfo')
        .set(user.headers)
        .send({ sessionId, ...edit })
        .expect(200);
    }
    return sessionId;
  };
  const access = (query: Record<string, string>) =>
    h.http().get(internalRoutes.studiesAccess.path).query(query).set(service);
  const accessOf = async (sessionId: string, user: { id: string; email: string }) =>
    (await access({ sessionId, userId: user.id, email: user.email }).expect(200)).body.res as unknown;
  const accessBatch = (body: unknown) =>
    h
      .http()
      .post(internalRoutes.studiesAccessBatch.path)
      .set(service)
      .send(body as object);
  /** Every row of the tables access reads: a batch of checks must leave them as they were. */
  const fingerprint = async () =>
    h.sql(
      `SELECT (SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM sessions t) AS sessions,
              (SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM groups t) AS groups`,
    );
  const deleteUserData = (body: Record<string, unknown>) =>
    h.http().post(internalRoutes.studiesUserDataDelete.path).set(service).send(body);

  describe('access', () => {
    let everyone: string;
    let listed: string;
    beforeAll(async () => {
      const groupId = await newGroup(ada);
      everyone = await newSession(ada, groupId, { type: 'chat' });
      listed = await newSession(ada, groupId, { type: 'stream', scope: ['Cy@Uni.test', 'bo@lab.test'] });
    });

    it('makes the group owner the owner, with the session type', async () => {
      expect(await accessOf(everyone, ada.user)).toEqual({
        role: 'owner',
        sessionType: 'chat',
        state: 'not_started',
      });
      expect(await accessOf(listed, ada.user)).toEqual({
        role: 'owner',
        sessionType: 'stream',
        state: 'not_started',
      });
    });

    it('lets anyone in to an Everyone session as a participant', async () => {
      expect(await accessOf(everyone, { id: fakeId(), email: 'anyone@uni.test' })).toEqual({
        role: 'participant',
        sessionType: 'chat',
        state: 'not_started',
      });
    });

    it('lets a listed e-mail in, whatever its case, and no one else', async () => {
      const cy = { id: fakeId(), email: 'cy@uni.test' };
      expect(await accessOf(listed, cy)).toEqual({
        role: 'participant',
        sessionType: 'stream',
        state: 'not_started',
      });
      expect(await accessOf(listed, { ...cy, email: 'CY@UNI.TEST' })).toEqual({
        role: 'participant',
        sessionType: 'stream',
        state: 'not_started',
      });
      expect(await accessOf(listed, { id: fakeId(), email: 'dee@uni.test' })).toEqual({
        role: 'none',
        sessionType: 'stream',
        state: 'not_started',
      });
    });

    it('treats another researcher as a participant only when the scope lets their e-mail in', async () => {
      const bo = h.person('researcher', { email: 'bo@lab.test' });
      expect(await accessOf(listed, bo.user)).toEqual({
        role: 'participant',
        sessionType: 'stream',
        state: 'not_started',
      });
      expect(await accessOf(everyone, h.person('researcher', { email: 'eve@lab.test' }).user)).toMatchObject({
        role: 'participant',
      });
      expect(await accessOf(listed, h.person('researcher', { email: 'eve@lab.test' }).user)).toMatchObject({
        role: 'none',
      });
    });

    it('goes by user id for the owner, not by e-mail', async () => {
      expect(await accessOf(listed, { id: fakeId(), email: ada.user.email })).toEqual({
        role: 'none',
        sessionType: 'stream',
        state: 'not_started',
      });
    });

    it('answers none with no type for a session that does not exist', async () => {
      expect(await accessOf(fakeId(), ada.user)).toEqual({ role: 'none', sessionType: null });
    });

    it('follows scope and type changes at once', async () => {
      const groupId = await newGroup(ada);
      const sessionId = await newSession(ada, groupId, { scope: [] });
      const cy = { id: fakeId(), email: 'cy@uni.test' };
      expect(await accessOf(sessionId, cy)).toEqual({
        role: 'none',
        sessionType: 'video',
        state: 'not_started',
      });
      await newSession(ada, groupId);
      await h
        .http()
        .post('/editSessionInfo')
        .set(ada.headers)
        .send({ sessionId, scope: ['cy@uni.test'], type: 'chat' })
        .expect(200);
      expect(await accessOf(sessionId, cy)).toEqual({
        role: 'participant',
        sessionType: 'chat',
        state: 'not_started',
      });
    });

    it.each([
      ['no sessionId', { userId: fakeId(), email: 'a@b.co' }, 'This field must not be empty'],
      [
        'a bad sessionId',
        { sessionId: 'x', userId: fakeId(), email: 'a@b.co' },
        'sessionId: is not a valid id',
      ],
      ['a bad userId', { sessionId: fakeId(), userId: 'x', email: 'a@b.co' }, 'userId: is not a valid id'],
      ['no e-mail', { sessionId: fakeId(), userId: fakeId() }, 'This field must not be empty'],
      [
        'a bad e-mail',
        { sessionId: fakeId(), userId: fakeId(), email: 'a@' },
        'email: is not a valid e-mail address',
      ],
    ])('refuses %s with a 400', async (_label, query, message) => {
      const res = await access(query).expect(400);
      expect(res.body.res.message).toBe(message);
    });
  });

  describe('batched access (studiesAccessBatch)', () => {
    let everyone: string;
    let listed: string;
    const check = (sessionId: string, user: { id: string; email: string }) => ({
      sessionId,
      userId: user.id,
      email: user.email,
    });
    beforeAll(async () => {
      const groupId = await newGroup(ada);
      everyone = await newSession(ada, groupId, { type: 'chat' });
      listed = await newSession(ada, groupId, { type: 'stream', scope: ['cy@uni.test'] });
    });

    it('answers owner, participant, none and unknown sessions in one call, in the order asked, as one-by-one checks do', async () => {
      const cy = { id: fakeId(), email: 'cy@uni.test' };
      const dee = { id: fakeId(), email: 'dee@uni.test' };
      const items = [
        check(listed, cy),
        check(fakeId(), ada.user),
        check(everyone, ada.user),
        check(listed, dee),
        check(everyone, dee),
        check(listed, ada.user),
        // The same session again, and in upper case: read once, matched as findOne matches it.
        check(listed.toUpperCase(), cy),
      ];
      // Every statement studies sends goes through TypeORM's query runner: watched, not replaced.
      const query = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      const res = await accessBatch({ items }).expect(200);
      const statements = query.mock.calls.map(([sql]) => sql);
      query.mockRestore();
      // One query for all the sessions, whatever the number of checks and repeats.
      expect(statements.filter((sql) => /\bsessions\b/.test(sql))).toHaveLength(1);
      expect(res.body).toEqual({
        status: 'SUCCESS',
        res: {
          access: [
            { role: 'participant', sessionType: 'stream', state: 'not_started' },
            { role: 'none', sessionType: null },
            { role: 'owner', sessionType: 'chat', state: 'not_started' },
            { role: 'none', sessionType: 'stream', state: 'not_started' },
            { role: 'participant', sessionType: 'chat', state: 'not_started' },
            { role: 'owner', sessionType: 'stream', state: 'not_started' },
            { role: 'participant', sessionType: 'stream', state: 'not_started' },
          ],
        },
      });
      const oneByOne = [];
      for (const item of items)
        oneByOne.push(await accessOf(item.sessionId, { id: item.userId, email: item.email }));
      expect(res.body.res.access).toEqual(oneByOne);
    });

    it(`answers a full call of ${ACCESS_CHECKS_PER_CALL} checks, and follows scope changes at once`, async () => {
      const groupId = await newGroup(ada);
      const closed = await newSession(ada, groupId, { scope: [] });
      const people = Array.from({ length: ACCESS_CHECKS_PER_CALL }, (_, n) => ({
        id: fakeId(),
        email: `p${n}@uni.test`,
      }));
      const roles = async () => {
        const res = await accessBatch({ items: people.map((p) => check(closed, p)) }).expect(200);
        return (res.body.res.access as { role: string }[]).map((a) => a.role);
      };
      expect(new Set(await roles())).toEqual(new Set(['none']));
      await h
        .http()
        .post('/editSessionInfo')
        .set(ada.headers)
        .send({ sessionId: closed, scope: ['p1@uni.test', 'p7@uni.test'] })
        .expect(200);
      const after = await roles();
      expect(after.flatMap((role, n) => (role === 'participant' ? [n] : []))).toEqual([1, 7]);
    });

    describe('bad input is a 400 that says what is wrong, and changes nothing', () => {
      // Built when the table is, before beforeAll: no test user yet.
      const good = () => ({ sessionId: fakeId(), userId: fakeId(), email: 'a@b.co' });
      it.each([
        ['no items', { items: [] }, 'items: must hold at least one check'],
        ['items that are not a list', { items: 'hi' }, 'items: must be a list of access checks'],
        [
          `more than ${ACCESS_CHECKS_PER_CALL} items`,
          null,
          `items: must hold at most ${ACCESS_CHECKS_PER_CALL} checks`,
        ],
        [
          'a bad session id',
          { items: [good(), { ...good(), sessionId: 'x' }] },
          'items.1.sessionId: is not a valid id',
        ],
        [
          'a bad user id',
          { items: [good(), { ...good(), userId: 'me' }] },
          'items.1.userId: is not a valid id',
        ],
        [
          'a bad e-mail',
          { items: [good(), { ...good(), email: 'a@' }] },
          'items.1.email: is not a valid e-mail address',
        ],
        ['no e-mail', { items: [{ sessionId: fakeId(), userId: fakeId() }] }, 'This field must not be empty'],
      ] as const)('%s', async (_label, given, message) => {
        const before = await fingerprint();
        const body = given ?? { items: Array.from({ length: ACCESS_CHECKS_PER_CALL + 1 }, good) };
        const res = await accessBatch(body).expect(400);
        expect(res.body.res).toEqual({ message, code: 'VALIDATION', issues: expect.any(Array) });
        expect(await fingerprint()).toEqual(before);
      });

      it("generated bad input (kit's invalidPayloadOf of the route's own schema): each object a 4xx with a message, nothing changed", async () => {
        const route = internalRoutes.studiesAccessBatch;
        // JSON objects the kit's parser takes (other bodies and bodies over its limit: kit's http tests).
        const sendable = (payload: unknown) => {
          if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false;
          const json = JSON.stringify(payload);
          return (
            json !== undefined && json.length < 90_000 && !route.request.safeParse(JSON.parse(json)).success
          );
        };
        const payloads = fc
          .sample(invalidPayloadOf(route.request), {
            numRuns: 1000,
            seed: Number(process.env.FUZZ_SEED ?? 42),
          })
          .filter(sendable)
          .slice(0, 100);
        expect(payloads).toHaveLength(100);
        const before = await fingerprint();
        const unclear: unknown[] = [];
        for (const payload of payloads) {
          const res = await accessBatch(payload);
          if (res.status < 400 || res.status >= 500 || typeof res.body?.res?.message !== 'string')
            unclear.push({ payload, res: res.body });
        }
        expect(unclear).toEqual([]);
        expect(await fingerprint()).toEqual(before);
      });
    });
  });

  describe('user-data delete', () => {
    it('deletes the user’s groups through the group path and removes the e-mail from every scope', async () => {
      const leaving = h.person('researcher', { email: 'leaving@lab.test' });
      const stays = h.person('researcher', { email: 'stays@lab.test' });
      const groups = [await newGroup(leaving), await newGroup(leaving)];
      const own = [await newSession(leaving, groups[0]!), await newSession(leaving, groups[1]!)];
      await newGroup(leaving); // an empty one
      const staysGroup = await newGroup(stays);
      const shared = await newSession(stays, staysGroup, { scope: ['friend@uni.test', 'Leaving@Lab.test'] });
      const alone = await newSession(stays, staysGroup, { scope: ['leaving@lab.test'] });
      const open = await newSession(stays, staysGroup);

      const res = await deleteUserData({ userId: leaving.user.id, email: 'Leaving@lab.test' }).expect(200);
      expect(res.body).toEqual({ status: 'SUCCESS', res: { message: expect.any(String) } });

      expect(await h.sql('SELECT id FROM groups WHERE owner_id = $1', [leaving.user.id])).toEqual([]);
      expect(await h.sql('SELECT id FROM sessions WHERE id = ANY($1)', [own])).toEqual([]);
      const sent = h.content
        .callsTo(internalRoutes.contentSessionDataDelete)
        .flatMap((c) => c.sessionIds as string[])
        .sort();
      expect(sent).toEqual([...own].sort());
      expect(
        h.records
          .callsTo(internalRoutes.recordsSessionDataDelete)
          .flatMap((c) => c.sessionIds as string[])
          .sort(),
      ).toEqual([...own].sort());

      const scopes = await h.sql<{ id: string; scope: string[] | null }>(
        'SELECT id, scope FROM sessions WHERE id = ANY($1)',
        [[shared, alone, open]],
      );
      expect(Object.fromEntries(scopes.map((s) => [s.id, s.scope]))).toEqual({
        [shared]: ['friend@uni.test'],
        [alone]: [],
        [open]: null,
      });
      await h
        .http()
        .get('/getGroups')
        .set(leaving.headers)
        .expect(200, { status: 'SUCCESS', res: { groups: [] } });
      expect(await accessOf(alone, leaving.user)).toEqual({
        role: 'none',
        sessionType: 'video',
        state: 'not_started',
      });

      // Idempotent: nothing left to do, nobody asked again.
      h.content.reset();
      h.records.reset();
      await deleteUserData({ userId: leaving.user.id, email: 'leaving@lab.test' }).expect(200);
      expect(h.content.calls).toEqual([]);
      expect(h.records.calls).toEqual([]);
    });

    it('deletes nothing when a data owner fails, and everything on retry', async () => {
      const leaving = h.person('researcher', { email: 'retry@lab.test' });
      const groupId = await newGroup(leaving);
      const sessionId = await newSession(leaving, groupId);
      const other = await newSession(ada, await newGroup(ada), { scope: ['retry@lab.test'] });

      h.content.failNext(internalRoutes.contentSessionDataDelete);
      const failed = await deleteUserData({ userId: leaving.user.id, email: leaving.user.email }).expect(503);
      expect(failed.body.res.message).toMatch(/^Nothing was deleted: content refused/);
      expect(await h.sql('SELECT id FROM sessions WHERE id = $1', [sessionId])).toHaveLength(1);
      expect(await accessOf(other, leaving.user)).toMatchObject({ role: 'participant' });

      await deleteUserData({ userId: leaving.user.id, email: leaving.user.email }).expect(200);
      expect(await h.sql('SELECT id FROM sessions WHERE id = $1', [sessionId])).toEqual([]);
      expect(await accessOf(other, leaving.user)).toMatchObject({ role: 'none' });
    });

    it('succeeds for a user studies never heard of', async () => {
      await deleteUserData({ userId: fakeId(), email: 'stranger@uni.test' }).expect(200);
    });

    it.each([
      ['no userId', { email: 'a@b.co' }, 'This field must not be empty'],
      ['a bad userId', { userId: 'me', email: 'a@b.co' }, 'userId: is not a valid id'],
      ['no e-mail', { userId: fakeId() }, 'This field must not be empty'],
      ['a bad e-mail', { userId: fakeId(), email: 'nope' }, 'email: is not a valid e-mail address'],
    ])('refuses %s with a 400', async (_label, body, message) => {
      const res = await deleteUserData(body).expect(400);
      expect(res.body.res.message).toBe(message);
    });
  });

  it('refuse callers without the service token, whatever else they hold', async () => {
    const sessionId = await newSession(ada, await newGroup(ada));
    const query = { sessionId, userId: ada.user.id, email: ada.user.email };
    const body = { userId: ada.user.id, email: ada.user.email };
    for (const headers of [
      {},
      { [SERVICE_TOKEN_HEADER]: 'x'.repeat(64) },
      { [SERVICE_TOKEN_HEADER]: `${h.env.SERVICE_TOKEN}x` },
      ada.headers,
    ]) {
      const read = await h
        .http()
        .get(internalRoutes.studiesAccess.path)
        .query(query)
        .set(headers)
        .expect(403);
      expect(read.body.res.message).toBe('Internal endpoint: a valid service token is required.');
      const batch = await h
        .http()
        .post(internalRoutes.studiesAccessBatch.path)
        .set(headers)
        .send({ items: [query] })
        .expect(403);
      expect(batch.body.res.message).toBe('Internal endpoint: a valid service token is required.');
      await h.http().post(internalRoutes.studiesUserDataDelete.path).set(headers).send(body).expect(403);
    }
    expect(await h.sql('SELECT id FROM groups WHERE owner_id = $1', [ada.user.id])).not.toEqual([]);
  });
});
