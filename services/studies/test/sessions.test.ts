import { internalRoutes } from '@uis/proto';
import { sendInput } from '@uis/kit/testing';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

interface SessionRow {
  session_id: string;
  title: string;
  scope: string | string[];
  type: string;
  track: string;
  source: string;
}

describe('sessions', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let bo: TestPerson;
  let adaGroup: string;
  let boGroup: string;
  beforeAll(async () => {
    h = await startStudies('sessions');
    ada = h.person('researcher');
    bo = h.person('researcher');
    adaGroup = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group
      .group_id;
    boGroup = (await h.http().post('/createGroup').set(bo.headers).send({}).expect(200)).body.res.group
      .group_id;
  });
  afterAll(() => h.close());

  const createSession = async (user: TestPerson, groupId: string): Promise<SessionRow> =>
    (await h.http().post('/createSession').set(user.headers).send({ groupId }).expect(200)).body.res
      .session as SessionRow;
  const sessionsOf = async (user: TestPerson, groupId: string): Promise<SessionRow[]> =>
    (await h.http().get('/getSessions').query({ groupId }).set(user.headers).expect(200)).body.res
      .sessions as SessionRow[];
  const edit = (user: TestPerson, body: Record<string, unknown>) =>
    h.http().post('/editSessionInfo').set(user.headers).send(body);
  const info = (user: TestPerson, sessionId: string) =>
    h.http().get('/getSessionInfo').query({ sessionId }).set(user.headers);
  const participantSessions = (user: TestPerson, query: Record<string, string> = {}) =>
    h.http().get('/getParticipantSessions').query(query).set(user.headers);
  const listedIds = async (user: TestPerson, query: Record<string, string> = {}): Promise<string[]> =>
    ((await participantSessions(user, query).expect(200)).body.res.sessions as { session_id: string }[]).map(
      (s) => s.session_id,
    );

  it('creates sessions with the defaults: video, Everyone, empty track and source, numbered titles', async () => {
    const group = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group;
    const first = await h
      .http()
      .post('/createSession')
      .set(ada.headers)
      .send({ groupId: group.group_id, email: ada.user.email })
      .expect(200);
    expect(first.body).toEqual({
      status: 'SUCCESS',
      res: {
        session: {
          session_id: expect.any(String),
          title: 'New session',
          type: 'video',
          scope: 'Everyone',
          track: '',
          source: '',
          completionUrl: null,
          state: 'not_started',
        },
      },
    });
    const second = await createSession(ada, group.group_id);
    expect(second.title).toBe('New session 2');
    // Numbering is per group.
    expect((await createSession(bo, boGroup)).title).toBe('New session');
    expect(await sessionsOf(ada, group.group_id)).toEqual([first.body.res.session, second]);
  });

  it('edits title, scope, track and source, and answers them back', async () => {
    const session = await createSession(ada, adaGroup);
    const res = await edit(ada, {
      sessionId: session.session_id,
      title: ' Interview ',
      scope: ['Cy@Uni.test', 'cy@uni.test', 'di@uni.test'],
      track: 'Track A',
    }).expect(200);
    expect(res.body.res).toEqual({ message: 'Session updated.' });
    const seen = (await info(ada, session.session_id).expect(200)).body.res.sessionInfo;
    expect(seen).toEqual({
      title: 'Interview',
      scope: ['cy@uni.test', 'di@uni.test'],
      type: 'video',
      track: 'Track A',
      source: '',
      completionUrl: null,
      state: 'not_started',
    });
    await edit(ada, { sessionId: session.session_id, scope: 'Everyone', track: '' }).expect(200);
    const back = (await info(ada, session.session_id).expect(200)).body.res.sessionInfo;
    expect(back).toMatchObject({ scope: 'Everyone', track: '', title: 'Interview' });
    // Sending a field with its current value changes nothing and is fine.
    await edit(ada, { sessionId: session.session_id, type: 'video' }).expect(200);
    expect(h.content.calls).toEqual([]);
  });

  it("accepts the spec's own scope form, a JSON-encoded list of e-mails", async () => {
    const session = await createSession(ada, adaGroup);
    await edit(ada, { sessionId: session.session_id, scope: '["Eve@Uni.test","fay@uni.test"]' }).expect(200);
    expect((await info(ada, session.session_id).expect(200)).body.res.sessionInfo.scope).toEqual([
      'eve@uni.test',
      'fay@uni.test',
    ]);
    const bad = await edit(ada, { sessionId: session.session_id, scope: '["eve@uni.test","nope"]' }).expect(
      400,
    );
    expect(bad.body.res.message).toBe('scope: entry 2 is not a valid e-mail address');
  });

  describe('telling the live services who may be in a session', () => {
    const notices = () => [h.realtime, h.signal].map((standIn) => standIn.calls.map((call) => call.body));
    beforeEach(() => {
      h.realtime.reset();
      h.signal.reset();
    });

    it('tells realtime and signal when the scope or the type changes, not for other edits', async () => {
      const { session_id: sessionId } = await createSession(ada, adaGroup);
      await edit(ada, { sessionId, title: 'Renamed', track: 'T' }).expect(200);
      expect(notices()).toEqual([[], []]);
      await edit(ada, { sessionId, scope: ['gil@uni.test'] }).expect(200);
      await edit(ada, { sessionId, type: 'chat' }).expect(200);
      const changed = { sessionIds: [sessionId], deleted: false };
      expect(notices()).toEqual([
        [changed, changed],
        [changed, changed],
      ]);
    });

    it('tells them when a session, or a group of sessions, is deleted', async () => {
      const { session_id: one } = await createSession(ada, adaGroup);
      await h.http().post('/deleteSession').set(ada.headers).send({ sessionId: one }).expect(200);
      const groupId = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res
        .group.group_id as string;
      const two = (await createSession(ada, groupId)).session_id;
      const three = (await createSession(ada, groupId)).session_id;
      await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(200);
      for (const calls of notices()) {
        expect(calls[0]).toEqual({ sessionIds: [one], deleted: true });
        expect(calls[1]).toMatchObject({ deleted: true });
        expect((calls[1]?.sessionIds as string[]).sort()).toEqual([two, three].sort());
      }
    });

    it('saves the change even when a live service cannot be told', async () => {
      const { session_id: sessionId } = await createSession(ada, adaGroup);
      h.realtime.failNext(internalRoutes.realtimeSessionAccessChanged);
      await edit(ada, { sessionId, scope: ['hal@uni.test'] }).expect(200);
      expect((await info(ada, sessionId).expect(200)).body.res.sessionInfo.scope).toEqual(['hal@uni.test']);
      expect(h.signal.calls).toHaveLength(1);
    });
  });

  it('deletes a session of the caller', async () => {
    const session = await createSession(ada, adaGroup);
    const res = await h
      .http()
      .post('/deleteSession')
      .set(ada.headers)
      .send({ sessionId: session.session_id });
    expect(res.status).toBe(200);
    expect(res.body.res).toEqual({ message: 'Session deleted.' });
    expect((await sessionsOf(ada, adaGroup)).map((s) => s.session_id)).not.toContain(session.session_id);
    await info(ada, session.session_id).expect(404);
  });

  describe('ownership', () => {
    let adaSession: SessionRow;
    beforeAll(async () => {
      adaSession = await createSession(ada, adaGroup);
      await edit(ada, { sessionId: adaSession.session_id, title: 'Ada’s', scope: ['cy@uni.test'] }).expect(
        200,
      );
    });

    it('refuses another researcher on every route with a 403', async () => {
      const sessionId = adaSession.session_id;
      const calls = [
        h.http().get('/getSessions').query({ groupId: adaGroup }),
        h.http().post('/createSession').send({ groupId: adaGroup }),
        h.http().post('/deleteSession').send({ sessionId }),
        h.http().get('/getSessionInfo').query({ sessionId }),
        h.http().post('/editSessionInfo').send({ sessionId, title: 'Mine' }),
      ];
      for (const call of calls) {
        const res = await call.set(bo.headers).expect(403);
        expect(res.body.res.message).toMatch(
          /^(This group belongs to another researcher\.|Only the researcher who owns this session can do this\.|You are not part of this session\.)$/,
        );
        expect(JSON.stringify(res.body)).not.toContain('Ada’s');
      }
      expect((await info(ada, sessionId).expect(200)).body.res.sessionInfo.title).toBe('Ada’s');
      expect(await sessionsOf(ada, adaGroup)).toContainEqual(
        expect.objectContaining({ session_id: sessionId }),
      );
    });

    it('answers 404 for a group or session that does not exist', async () => {
      const unknown = fakeId();
      const calls = [
        h.http().get('/getSessions').query({ groupId: unknown }),
        h.http().post('/createSession').send({ groupId: unknown }),
        h.http().post('/deleteSession').send({ sessionId: unknown }),
        h.http().get('/getSessionInfo').query({ sessionId: unknown }),
        h.http().post('/editSessionInfo').send({ sessionId: unknown, title: 'x' }),
      ];
      for (const call of calls) {
        const res = await call.set(ada.headers).expect(404);
        expect(res.body.res.message).toMatch(/^No such (group|session)\.$/);
      }
    });

    it('refuses creating a session for another e-mail', async () => {
      const res = await h
        .http()
        .post('/createSession')
        .set(ada.headers)
        .send({ groupId: adaGroup, email: bo.user.email })
        .expect(403);
      expect(res.body.res.message).toBe('You can only create sessions for yourself.');
    });

    it('keeps participants off the researcher routes', async () => {
      const cy = h.person('participant', { email: 'cy@uni.test' });
      const sessionId = adaSession.session_id;
      for (const call of [
        h.http().get('/getSessions').query({ groupId: adaGroup }),
        h.http().post('/createSession').send({ groupId: adaGroup }),
        h.http().post('/deleteSession').send({ sessionId }),
        h.http().post('/editSessionInfo').send({ sessionId, title: 'x' }),
      ]) {
        const res = await call.set(cy.headers).expect(403);
        expect(res.body.res.message).toBe('Only researchers can do this.');
      }
    });

    it('wants a signed-in user on every route', async () => {
      const sessionId = adaSession.session_id;
      for (const call of [
        () => h.http().get('/getSessions').query({ groupId: adaGroup }),
        () => h.http().post('/createSession').send({ groupId: adaGroup }),
        () => h.http().post('/deleteSession').send({ sessionId }),
        () => h.http().get('/getSessionInfo').query({ sessionId }),
        () => h.http().post('/editSessionInfo').send({ sessionId, title: 'x' }),
        () => h.http().get('/getParticipantSessions'),
      ]) {
        await call().expect(401);
        await call()
          .set({ authorization: `Bearer ${ada.token}x` })
          .expect(401);
      }
    });
  });

  describe('what participants see', () => {
    let everyone: SessionRow;
    let listed: SessionRow;
    let other: SessionRow;
    const cyEmail = 'cy.listed@uni.test';
    beforeAll(async () => {
      everyone = await createSession(ada, adaGroup);
      listed = await createSession(ada, adaGroup);
      other = await createSession(bo, boGroup);
      await edit(ada, { sessionId: everyone.session_id, title: 'Open to all' }).expect(200);
      await edit(ada, {
        sessionId: listed.session_id,
        title: 'Invited only',
        type: 'stream',
        scope: ['secret.one@uni.test', 'CY.Listed@Uni.test', 'secret.two@uni.test'],
      }).expect(200);
      await edit(bo, {
        sessionId: other.session_id,
        title: 'Not for Cy',
        scope: ['secret.one@uni.test'],
      }).expect(200);
    });

    it('lets a participant in scope read the session, with the scope reduced to their own e-mail', async () => {
      const cy = h.person('participant', { email: cyEmail });
      const seen = (await info(cy, listed.session_id).expect(200)).body.res.sessionInfo;
      expect(seen).toEqual({
        title: 'Invited only',
        scope: [cyEmail],
        type: 'stream',
        track: '',
        source: '',
        completionUrl: null,
        state: 'not_started',
      });
      // The same person with their e-mail in another case is the same person.
      const shouting = h.person('participant', { email: cyEmail.toUpperCase() });
      expect((await info(shouting, listed.session_id).expect(200)).body.res.sessionInfo.scope).toEqual([
        cyEmail,
      ]);
      const open = (await info(cy, everyone.session_id).expect(200)).body.res.sessionInfo;
      expect(open).toMatchObject({ title: 'Open to all', scope: 'Everyone' });
    });

    it('refuses anyone outside the scope with a 403 and none of the session', async () => {
      const dee = h.person('participant', { email: 'dee@uni.test' });
      const res = await info(dee, listed.session_id).expect(403);
      expect(res.body.res).toEqual({ message: 'You are not part of this session.', code: 'FORBIDDEN' });
      await info(h.person('participant', { email: cyEmail }), other.session_id).expect(403);
      await info(dee, fakeId()).expect(404);
    });

    it('lists the caller’s sessions (listed, and the Everyone sessions of the researchers who listed them), oldest first, with delete disabled', async () => {
      const cy = h.person('participant', { email: cyEmail });
      const res = await participantSessions(cy).expect(200);
      const sessions = res.body.res.sessions as Record<string, unknown>[];
      const mine = sessions.filter((s) =>
        [everyone.session_id, listed.session_id].includes(s.session_id as string),
      );
      expect(mine).toEqual([
        { session_id: everyone.session_id, type: 'video', title: 'Open to all', deleteDisabled: true },
        { session_id: listed.session_id, type: 'stream', title: 'Invited only', deleteDisabled: true },
      ]);
      expect(sessions.map((s) => s.session_id)).not.toContain(other.session_id);
      for (const s of sessions) {
        expect(Object.keys(s).sort()).toEqual(['deleteDisabled', 'session_id', 'title', 'type']);
        expect(s.deleteDisabled).toBe(true);
      }
      // Everyone sessions of the researcher whose list names them (Ada's), not every lab's.
      const everyoneIds = (
        await h.sql<{ id: string }>(
          'SELECT s.id FROM sessions s JOIN groups g ON g.id = s.group_id WHERE s.scope IS NULL AND g.owner_id = $1',
          [ada.user.id],
        )
      ).map((r) => r.id);
      expect(sessions.map((s) => s.session_id).sort()).toEqual([...everyoneIds, listed.session_id].sort());
      // Oldest first.
      const created = await h.sql<{ id: string }>(
        'SELECT id FROM sessions WHERE id = ANY($1) ORDER BY created_at, id',
        [sessions.map((s) => s.session_id)],
      );
      expect(sessions.map((s) => s.session_id)).toEqual(created.map((r) => r.id));
    });

    it('matches the e-mail whatever its case, and accepts the caller’s own e-mail as the parameter', async () => {
      const cy = h.person('participant', { email: cyEmail.toUpperCase() });
      const ids = await listedIds(cy, { email: cyEmail });
      expect(ids).toContain(listed.session_id);
    });

    it('shows a participant no researcher brought no session, not even the Everyone ones (they open by link)', async () => {
      const dee = h.person('participant', { email: 'dee.unlisted@uni.test' });
      expect(await listedIds(dee)).toEqual([]);
      await info(dee, everyone.session_id).expect(200);
    });

    it('lists sessions for researchers too, by their e-mail', async () => {
      const eve = h.person('researcher', { email: 'secret.one@uni.test' });
      const ids = await listedIds(eve);
      expect(ids).toEqual(expect.arrayContaining([listed.session_id, other.session_id, everyone.session_id]));
      // And such a researcher may read the session as a participant, scope reduced.
      expect((await info(eve, listed.session_id).expect(200)).body.res.sessionInfo.scope).toEqual([
        'secret.one@uni.test',
      ]);
    });

    it('refuses to list another e-mail’s sessions', async () => {
      const cy = h.person('participant', { email: cyEmail });
      const res = await participantSessions(cy, { email: 'secret.one@uni.test' }).expect(403);
      expect(res.body.res.message).toBe('You can only list your own sessions.');
    });

    it('stops listing a session once the participant leaves its scope', async () => {
      const cy = h.person('participant', { email: cyEmail });
      await edit(ada, { sessionId: listed.session_id, scope: ['secret.one@uni.test'] }).expect(200);
      const ids = await listedIds(cy);
      expect(ids).not.toContain(listed.session_id);
      await info(cy, listed.session_id).expect(403);
    });
  });

  describe('bad input', () => {
    const sessionId = fakeId();
    it.each([
      ['GET', '/getSessions', 'no groupId', {}, 'This field must not be empty'],
      ['GET', '/getSessions', 'a bad groupId', { groupId: 'abc' }, 'groupId: is not a valid id'],
      ['POST', '/createSession', 'no groupId', {}, 'This field must not be empty'],
      [
        'POST',
        '/createSession',
        'a bad e-mail',
        { groupId: sessionId, email: 'x@' },
        'email: is not a valid e-mail address',
      ],
      ['POST', '/deleteSession', 'no sessionId', {}, 'This field must not be empty'],
      ['POST', '/deleteSession', 'a bad sessionId', { sessionId: 12 }, 'sessionId: is not a valid id'],
      ['GET', '/getSessionInfo', 'no sessionId', {}, 'This field must not be empty'],
      ['GET', '/getSessionInfo', 'a bad sessionId', { sessionId: 'x' }, 'sessionId: is not a valid id'],
      ['POST', '/editSessionInfo', 'no sessionId', { title: 'x' }, 'This field must not be empty'],
      [
        'POST',
        '/editSessionInfo',
        'nothing to change',
        { sessionId, titel: 'typo' },
        'nothing to change: send at least one of title, scope, type, track, source, completionUrl, state',
      ],
      [
        'POST',
        '/editSessionInfo',
        'a blank title',
        { sessionId, title: ' ' },
        'This field must not be empty',
      ],
      [
        'POST',
        '/editSessionInfo',
        'an unknown type',
        { sessionId, type: 'audio' },
        'type: must be video, stream or chat',
      ],
      [
        'POST',
        '/editSessionInfo',
        'a bad scope',
        { sessionId, scope: 'everyone' },
        "scope: must be 'Everyone' or a list of e-mails (plain or JSON-encoded)",
      ],
      [
        'POST',
        '/editSessionInfo',
        'a bad scope entry',
        { sessionId, scope: ['a@b.co', 'nope'] },
        'scope: entry 2 is not a valid e-mail address',
      ],
      [
        'POST',
        '/editSessionInfo',
        'a long track',
        { sessionId, track: 'x'.repeat(2001) },
        'track: must be at most 2000 characters',
      ],
      [
        'POST',
        '/editSessionInfo',
        'a source that is no text',
        { sessionId, source: 5 },
        'source: must be text',
      ],
      [
        'GET',
        '/getParticipantSessions',
        'a bad e-mail',
        { email: 'nobody' },
        'email: is not a valid e-mail address',
      ],
    ] as const)('%s %s refuses %s with a 400 that says why', async (method, path, _label, input, message) => {
      const res = await sendInput(h.http(), method, path, input).set(ada.headers).expect(400);
      expect(res.body.status).toBe('ERROR');
      expect(res.body.res.message).toBe(message);
    });

    it.each([
      ['a NUL character', 'a\u0000b', 'title: must not contain control characters'],
      ['another control character', 'a\u0007b', 'title: must not contain control characters'],
      ['a line break', 'a\nb', 'title: must be one line, without line breaks or tabs'],
      [
        'a right-to-left override',
        'evil\u202Egnp.exe',
        'title: must not contain bidirectional control characters',
      ],
    ])('refuses a title with %s, and changes nothing', async (_, title, message) => {
      const session = await createSession(ada, adaGroup);
      const res = await edit(ada, { sessionId: session.session_id, title }).expect(400);
      expect(res.body.res.message).toBe(message);
      expect((await info(ada, session.session_id).expect(200)).body.res.sessionInfo.title).toBe(
        session.title,
      );
    });

    it('keeps line breaks in a track, but no NUL', async () => {
      const session = await createSession(ada, adaGroup);
      await edit(ada, { sessionId: session.session_id, track: 'line one\nline two' }).expect(200);
      const res = await edit(ada, { sessionId: session.session_id, track: 'bad\u0000' }).expect(400);
      expect(res.body.res.message).toBe('track: must not contain control characters');
    });

    it('refuses a form body (what another site could post) with a 415, changing nothing', async () => {
      const session = await createSession(ada, adaGroup);
      const res = await h
        .http()
        .post('/editSessionInfo')
        .set(ada.headers)
        .type('form')
        .send({ sessionId: session.session_id, title: 'Forged' })
        .expect(415);
      expect(res.body.res).toMatchObject({ code: 'UNSUPPORTED_MEDIA' });
      expect((await info(ada, session.session_id).expect(200)).body.res.sessionInfo.title).toBe(
        session.title,
      );
    });

    it('refuses a body that is not JSON', async () => {
      const res = await h
        .http()
        .post('/editSessionInfo')
        .set(ada.headers)
        .set('content-type', 'application/json')
        .send('{"sessionId":')
        .expect(400);
      expect(res.body).toMatchObject({ status: 'ERROR', res: { code: 'VALIDATION' } });
    });
  });
});
