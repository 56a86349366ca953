import {
  JOIN_ATTEMPTS_PER_MINUTE,
  PANEL_IDS_MAX,
  PANEL_ID_CONFLICTS_MAX,
  SERVICE_TOKEN_HEADER,
  internalRoutes,
  type SessionPerson,
} from '@uis/proto';
import { PARTICIPATION_TEXTS } from '../src/participation/participation.service';
import { startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

/** Invitations when the scope names new people, join links, panel ids. */
describe('invitations and join links', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let groupId: string;

  beforeAll(async () => {
    h = await startStudies('participation');
    ada = h.person('researcher', { email: 'ada@lab.test' });
    groupId = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group
      .group_id as string;
  });
  afterAll(() => h.close());
  beforeEach(() => [h.auth, h.realtime].forEach((standIn) => standIn.reset()));

  const newSession = async () =>
    (await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(200)).body.res.session
      .session_id as string;
  const edit = (sessionId: string, body: Record<string, unknown>) =>
    h
      .http()
      .post('/editSessionInfo')
      .set(ada.headers)
      .send({ sessionId, ...body });
  const peopleOf = async (sessionId: string, user = ada) =>
    (await h.http().get('/getSessionPeople').query({ sessionId }).set(user.headers).expect(200)).body.res
      .people as Array<Record<string, unknown>>;
  const invitedTo = () => h.auth.callsTo(internalRoutes.authSendInvitation).map((call) => call.email);
  const scopeOf = async (sessionId: string) =>
    (await h.http().get('/getSessionInfo').query({ sessionId }).set(ada.headers).expect(200)).body.res
      .sessionInfo.scope as unknown;
  const join = (user: TestPerson, token: string, panelIds?: Record<string, string>) =>
    h.http().post('/joinSession').set(user.headers).send({ token, panelIds });
  const makeLink = async (sessionId: string, maxParticipants?: number) =>
    (
      await h
        .http()
        .post('/createJoinLink')
        .set(ada.headers)
        .send({ sessionId, ...(maxParticipants ? { maxParticipants } : {}) })
        .expect(200)
    ).body.res.joinLink as { token: string; maxParticipants: number | null; joined: number };

  it('invites the addresses a saved scope adds (only those), lists them as invited, and re-sends on request', async () => {
    const sessionId = await newSession();
    await edit(sessionId, { title: 'Pattern viewing', scope: ['new1@uni.test', 'New2@Uni.test'] }).expect(
      200,
    );
    expect(invitedTo().sort()).toEqual(['new1@uni.test', 'new2@uni.test']);
    expect(h.auth.callsTo(internalRoutes.authSendInvitation)[0]).toMatchObject({
      sessionId,
      sessionTitle: 'Pattern viewing',
      researcherName: 'ada',
    });
    h.auth.reset();
    // Saving again with one more: only the new address gets a mail; one dropped leaves the list.
    await edit(sessionId, { scope: ['new2@uni.test', 'new3@uni.test'] }).expect(200);
    expect(invitedTo()).toEqual(['new3@uni.test']);
    const people = await peopleOf(sessionId);
    expect(
      people.map(({ email, status, invitations, source }) => ({ email, status, invitations, source })),
    ).toEqual([
      { email: 'new2@uni.test', status: 'invited', invitations: 1, source: 'scope' },
      { email: 'new3@uni.test', status: 'invited', invitations: 1, source: 'scope' },
    ]);
    expect(people[0]!.invitedAt).toEqual(expect.any(String));

    await h
      .http()
      .post('/resendInvitation')
      .set(ada.headers)
      .send({ sessionId, email: 'NEW2@uni.test' })
      .expect(200);
    expect((await peopleOf(sessionId))[0]).toMatchObject({ email: 'new2@uni.test', invitations: 2 });
    const notInScope = await h
      .http()
      .post('/resendInvitation')
      .set(ada.headers)
      .send({ sessionId, email: 'new1@uni.test' })
      .expect(404);
    expect(notInScope.body.res.message).toBe(PARTICIPATION_TEXTS.notInScope);

    // Reading the session's info records nothing; taking part (enterSession) makes them joined.
    const invited = h.person('participant', { email: 'new3@uni.test' });
    await h.http().get('/getSessionInfo').query({ sessionId }).set(invited.headers).expect(200);
    expect((await peopleOf(sessionId)).map(({ email, status }) => [email, status])).toEqual([
      ['new2@uni.test', 'invited'],
      ['new3@uni.test', 'invited'],
    ]);
    await h.http().post('/enterSession').set(invited.headers).send({ sessionId }).expect(200);
    expect((await peopleOf(sessionId)).map(({ email, status }) => [email, status])).toEqual([
      ['new2@uni.test', 'invited'],
      ['new3@uni.test', 'joined'],
    ]);
  });

  it('tells its researcher nothing of someone who only followed a link to an Everyone session, until they confirm', async () => {
    const sessionId = await newSession();
    const visitor = h.person('participant', { email: 'visitor@uni.test' });
    const mine = async () =>
      (await h.http().get('/getMyConsent').query({ sessionId }).set(visitor.headers).expect(200)).body
        .res as {
        mustConfirm: boolean;
      };
    await h.http().get('/getSessionInfo').query({ sessionId }).set(visitor.headers).expect(200);
    expect(await mine()).toMatchObject({ mustConfirm: true });
    expect(await peopleOf(sessionId)).toEqual([]);
    await h.http().post('/enterSession').set(visitor.headers).send({ sessionId }).expect(200);
    expect(await mine()).toMatchObject({ mustConfirm: false });
    expect((await peopleOf(sessionId)).map(({ email, status }) => [email, status])).toEqual([
      ['visitor@uni.test', 'joined'],
    ]);
    // Its owner is never asked; someone outside a named scope cannot enter.
    expect(
      (await h.http().get('/getMyConsent').query({ sessionId }).set(ada.headers).expect(200)).body.res,
    ).toMatchObject({ mustConfirm: false });
    await edit(sessionId, { scope: ['named@uni.test'] }).expect(200);
    await h
      .http()
      .post('/enterSession')
      .set(h.person('participant', { email: 'stranger@uni.test' }).headers)
      .send({ sessionId })
      .expect(403);
  });

  it('saves the scope even when auth cannot mail: the address shows not invited yet, and a refusal is passed on', async () => {
    const sessionId = await newSession();
    h.auth.failNext(internalRoutes.authSendInvitation, 2);
    await edit(sessionId, { scope: ['later@uni.test'] }).expect(200);
    expect(await scopeOf(sessionId)).toEqual(['later@uni.test']);
    expect((await peopleOf(sessionId))[0]).toMatchObject({
      email: 'later@uni.test',
      invitations: 0,
      invitedAt: null,
    });
    const refused = await h
      .http()
      .post('/resendInvitation')
      .set(ada.headers)
      .send({ sessionId, email: 'later@uni.test' });
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect((await peopleOf(sessionId))[0]).toMatchObject({ invitations: 0 });
  });

  it('adds whoever follows the join link to the scope, keeps their panel ids, and tells the live services', async () => {
    const sessionId = await newSession();
    await edit(sessionId, { scope: ['named@uni.test'] }).expect(200);
    const link = await makeLink(sessionId);
    // 256 random bits.
    expect(Buffer.from(link.token, 'base64url')).toHaveLength(32);
    expect(link).toMatchObject({ maxParticipants: null, joined: 0 });
    h.realtime.reset();

    const pat = h.person('participant', { email: 'pat@uni.test' });
    const joined = await join(pat, link.token, { PROLIFIC_PID: 'abc123', STUDY_ID: 's1' }).expect(200);
    expect(joined.body.res).toEqual({ sessionId });
    expect(await scopeOf(sessionId)).toEqual(['named@uni.test', 'pat@uni.test']);
    expect(h.realtime.callsTo(internalRoutes.realtimeSessionAccessChanged)).toHaveLength(1);
    // Following it again changes nothing; ids other than the first join's are kept as a conflict.
    await join(pat, link.token, { PROLIFIC_PID: 'abc123' }).expect(200);
    await join(pat, link.token, { PROLIFIC_PID: 'abc123', SESSION_ID: 'x9' }).expect(200);
    expect(await scopeOf(sessionId)).toEqual(['named@uni.test', 'pat@uni.test']);

    const people = await peopleOf(sessionId);
    expect(people.find((person) => person.email === 'pat@uni.test')).toMatchObject({
      source: 'link',
      status: 'joined',
      panelIds: { PROLIFIC_PID: 'abc123', STUDY_ID: 's1' },
      panelIdConflicts: [{ at: expect.any(String), panelIds: { PROLIFIC_PID: 'abc123', SESSION_ID: 'x9' } }],
    });
    // The owner following their own link is just sent to the session.
    await join(ada, link.token).expect(200);
    expect(await scopeOf(sessionId)).toEqual(['named@uni.test', 'pat@uni.test']);

    // Records' export reads the roster.
    const roster = await h
      .http()
      .get(internalRoutes.studiesSessionRoster.path)
      .query({ sessionId })
      .set({ [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! })
      .expect(200);
    expect(roster.body.res.people).toEqual([
      expect.objectContaining({ email: 'named@uni.test', source: 'scope', joinedAt: null, panelIds: {} }),
      expect.objectContaining({
        email: 'pat@uni.test',
        userId: pat.user.id,
        source: 'link',
        panelIds: expect.any(Object),
      }),
    ]);

    // Pat deletes their account: the session forgets their join and panel ids with their e-mail.
    await h
      .http()
      .post(internalRoutes.studiesUserDataDelete.path)
      .set({ [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! })
      .send({ userId: pat.user.id, email: pat.user.email })
      .expect(200);
    expect((await peopleOf(sessionId)).map(({ email }) => email)).toEqual(['named@uni.test']);
  });

  it('keeps a participant’s first panel ids whatever later joins send: the roster stays within its contract', async () => {
    const sessionId = await newSession();
    const link = await makeLink(sessionId);
    const mallory = h.person('participant', { email: 'mallory@uni.test' });
    const ids = (round: number) =>
      Object.fromEntries(Array.from({ length: PANEL_IDS_MAX }, (_, i) => [`ID${round}_${i}`, `v${round}`]));
    for (let round = 0; round < PANEL_ID_CONFLICTS_MAX + 3; round += 1) {
      await join(mallory, link.token, ids(round)).expect(200);
    }
    const person = (await peopleOf(sessionId)).find((entry) => entry.email === 'mallory@uni.test') as
      SessionPerson | undefined;
    expect(person?.panelIds).toEqual(ids(0));
    expect(person?.panelIdConflicts.map((conflict) => conflict.panelIds)).toEqual(
      Array.from({ length: PANEL_ID_CONFLICTS_MAX }, (_, i) => ids(i + 1)),
    );
    // What records' export reads passes proto's contract.
    const roster = await h
      .http()
      .get(internalRoutes.studiesSessionRoster.path)
      .query({ sessionId })
      .set({ [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! })
      .expect(200);
    expect(() => internalRoutes.studiesSessionRoster.answer.parse(roster.body.res)).not.toThrow();
  });

  it('refuses panel ids and completion-link text with control, line-break or bidirectional characters', async () => {
    const sessionId = await newSession();
    const link = await makeLink(sessionId);
    for (const value of ['a\u0000b', 'a\r\nb', 'a\u0007b', 'abc\u202Efed']) {
      await join(h.person('participant', { email: 'eve@uni.test' }), link.token, {
        PROLIFIC_PID: value,
      }).expect(400);
    }
    expect((await peopleOf(sessionId)).map((person) => person.email)).not.toContain('eve@uni.test');
  });

  it("tells auth's participant directory the people of a researcher's own sessions only", async () => {
    const named = await newSession();
    await edit(named, { scope: ['dir-named@uni.test'] }).expect(200);
    const open = await newSession();
    await h
      .http()
      .post('/enterSession')
      .set(h.person('participant', { email: 'dir-came@uni.test' }).headers)
      .send({ sessionId: open })
      .expect(200);
    const peopleOfResearcher = async (userId: string) =>
      (
        await h
          .http()
          .get(internalRoutes.studiesResearcherPeople.path)
          .query({ userId })
          .set({ [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! })
          .expect(200)
      ).body.res.emails as string[];
    expect(await peopleOfResearcher(ada.user.id)).toEqual(
      expect.arrayContaining(['dir-came@uni.test', 'dir-named@uni.test']),
    );
    expect(await peopleOfResearcher('6f1c2a8e-0d7b-4c1e-9a53-2b8f4e7d9c10')).toEqual([]);
  });

  it('refuses past the cap, a revoked or replaced link, and bad panel ids', async () => {
    const sessionId = await newSession();
    const first = await makeLink(sessionId, 1);
    await join(h.person('participant', { email: 'one@uni.test' }), first.token).expect(200);
    const full = await join(h.person('participant', { email: 'two@uni.test' }), first.token).expect(409);
    expect(full.body.res.message).toBe(PARTICIPATION_TEXTS.full);
    // Already in: following it again is no new place.
    await join(h.person('participant', { email: 'one@uni.test' }), first.token).expect(200);

    const second = await makeLink(sessionId);
    expect(second.token).not.toBe(first.token);
    expect(
      (await join(h.person('participant', { email: 'two@uni.test' }), first.token).expect(404)).body.res
        .message,
    ).toBe(PARTICIPATION_TEXTS.noLink);
    await join(h.person('participant', { email: 'two@uni.test' }), second.token).expect(200);
    await h.http().post('/revokeJoinLink').set(ada.headers).send({ sessionId }).expect(200);
    await join(h.person('participant', { email: 'three@uni.test' }), second.token).expect(404);
    expect(
      (await h.http().get('/getJoinLink').query({ sessionId }).set(ada.headers).expect(200)).body.res,
    ).toEqual({
      joinLink: null,
    });

    const third = await makeLink(sessionId);
    await join(h.person('participant', { email: 'four@uni.test' }), third.token, { 'bad name': 'x' }).expect(
      400,
    );
    await join(h.person('participant', { email: 'four@uni.test' }), third.token, {
      PID: 'x'.repeat(201),
    }).expect(400);
    // Scope Everyone stays Everyone; the people who came by link are listed (and counted for the cap).
    expect(await scopeOf(sessionId)).toBe('Everyone');
    expect((await peopleOf(sessionId)).map(({ email, source }) => [email, source])).toEqual([
      ['one@uni.test', 'link'],
      ['two@uni.test', 'link'],
    ]);
  });

  it("keeps everything to the session's owner, and limits join attempts per user", async () => {
    const sessionId = await newSession();
    const bo = h.person('researcher', { email: 'bo@lab.test' });
    await h.http().get('/getSessionPeople').query({ sessionId }).set(bo.headers).expect(403);
    await h.http().post('/createJoinLink').set(bo.headers).send({ sessionId }).expect(403);
    await h
      .http()
      .post('/revokeJoinLink')
      .set(h.person('participant').headers)
      .send({ sessionId })
      .expect(403);
    await h.http().post('/joinSession').send({ token: 'x' }).expect(401);

    const guesser = h.person('participant');
    for (let i = 0; i < JOIN_ATTEMPTS_PER_MINUTE; i += 1) await join(guesser, `guess-${i}`).expect(404);
    const limited = await join(guesser, 'guess-last').expect(429);
    expect(limited.body.res.message).toBe(PARTICIPATION_TEXTS.tooManyJoins);
  });
});
