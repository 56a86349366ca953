import { CONSENT_TEXTS, CONSENT_TEXT_MAX_CHARS, SERVICE_TOKEN_HEADER, internalRoutes } from '@uis/proto';
import { createHash } from 'node:crypto';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A session's consent text, its versions, and the participants' agreements to it. */
describe('consent', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let cy: TestPerson;
  let groupId: string;
  let service: Record<string, string>;

  beforeAll(async () => {
    h = await startStudies('consent');
    service = { [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! };
    ada = h.person('researcher', { email: 'ada@lab.test' });
    cy = h.person('participant', { email: 'cy@uni.test' });
    groupId = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group
      .group_id as string;
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.realtime.reset();
    h.records.reset();
  });

  const newSession = async (scope: string[] | 'Everyone' = [cy.user.email]): Promise<string> => {
    const sessionId = (await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(200))
      .body.res.session.session_id as string;
    await h.http().post('/editSessionInfo').set(ada.headers).send({ sessionId, scope }).expect(200);
    h.realtime.reset();
    return sessionId;
  };
  const setText = (sessionId: string, text: unknown, user = ada) =>
    h.http().post('/setSessionConsent').set(user.headers).send({ sessionId, text });
  const ownerView = async (sessionId: string) =>
    (await h.http().get('/getSessionConsent').query({ sessionId }).set(ada.headers).expect(200)).body.res as {
      consent: { version: number; text: string; sha256: string; createdAt: string } | null;
      acceptances: Record<string, unknown>[];
    };
  const myConsent = (sessionId: string, user = cy) =>
    h.http().get('/getMyConsent').query({ sessionId }).set(user.headers);
  const accept = (sessionId: string, hash: string, user = cy) =>
    h.http().post('/acceptConsent').set(user.headers).send({ sessionId, sha256: hash });
  const accessOf = async (sessionId: string, user: TestPerson) =>
    (
      await h
        .http()
        .get(internalRoutes.studiesAccess.path)
        .query({ sessionId, userId: user.user.id, email: user.user.email })
        .set(service)
        .expect(200)
    ).body.res as Record<string, unknown>;
  const notices = () => h.realtime.callsTo(internalRoutes.realtimeSessionAccessChanged);
  const tableRows = async (sessionId: string) => ({
    versions: await h.sql('SELECT * FROM session_consents WHERE session_id = $1', [sessionId]),
    acceptances: await h.sql('SELECT * FROM consent_acceptances WHERE session_id = $1', [sessionId]),
  });

  it('keeps a version per text change, hashed, and tells live connections of each new one only', async () => {
    const sessionId = await newSession();
    expect(await ownerView(sessionId)).toEqual({ consent: null, acceptances: [] });
    // An empty text before any version asks for nothing and stores nothing.
    expect((await setText(sessionId, '  ').expect(200)).body.res).toEqual({ consent: null, changed: false });

    const first = (await setText(sessionId, '  I agree to be recorded.\r\nData kept 5 years. ').expect(200))
      .body.res;
    const text = 'I agree to be recorded.\nData kept 5 years.';
    expect(first).toEqual({
      changed: true,
      consent: { version: 1, text, sha256: sha256(text), createdAt: expect.any(String) },
    });
    expect(notices()).toEqual([{ sessionIds: [sessionId], deleted: false }]);

    // The same words (line breaks and outer spaces aside) are not a new version, and tell nobody.
    h.realtime.reset();
    const same = (await setText(sessionId, `${text.replace('\n', '\r\n')}\n`).expect(200)).body.res;
    expect(same).toEqual({ changed: false, consent: first.consent });
    expect(notices()).toEqual([]);

    const second = (await setText(sessionId, 'Version two.').expect(200)).body.res;
    expect(second.consent).toMatchObject({
      version: 2,
      text: 'Version two.',
      sha256: sha256('Version two.'),
    });
    const cleared = (await setText(sessionId, '').expect(200)).body.res;
    expect(cleared.consent).toMatchObject({ version: 3, text: '', sha256: sha256('') });
    expect((await ownerView(sessionId)).consent).toMatchObject({ version: 3, text: '' });
    expect(notices()).toHaveLength(2);
    // An empty current text asks the participants for nothing.
    expect((await myConsent(sessionId).expect(200)).body.res).toEqual({
      consent: null,
      required: false,
      acceptedAt: null,
      mustConfirm: false,
    });
    expect(await accessOf(sessionId, cy)).toEqual({
      role: 'participant',
      sessionType: 'video',
      state: 'not_started',
    });
  });

  it('requires a participant to agree to the current text, by its hash, and records who, when and which', async () => {
    const sessionId = await newSession();
    const text = 'Your messages and clicks are recorded.';
    await setText(sessionId, text).expect(200);
    expect((await myConsent(sessionId).expect(200)).body.res).toEqual({
      consent: { version: 1, text, sha256: sha256(text), createdAt: expect.any(String) },
      required: true,
      acceptedAt: null,
      mustConfirm: false,
    });
    expect(await accessOf(sessionId, cy)).toEqual({
      role: 'participant',
      sessionType: 'video',
      state: 'not_started',
      consentPending: true,
    });
    // The owner is never asked.
    expect((await myConsent(sessionId, ada).expect(200)).body.res).toMatchObject({ required: false });
    expect(await accessOf(sessionId, ada)).toEqual({
      role: 'owner',
      sessionType: 'video',
      state: 'not_started',
    });

    // Another text's hash: refused, nothing stored.
    h.realtime.reset();
    const wrong = await accept(sessionId, sha256('something else')).expect(409);
    expect(wrong.body.res).toMatchObject({ code: 'CONFLICT', message: CONSENT_TEXTS.changed });
    expect((await tableRows(sessionId)).acceptances).toEqual([]);
    expect(notices()).toEqual([]);

    const before = Date.now();
    const agreed = (await accept(sessionId, sha256(text)).expect(200)).body.res.acceptance;
    expect(agreed).toEqual({ version: 1, sha256: sha256(text), acceptedAt: expect.any(String) });
    expect(Date.parse(agreed.acceptedAt)).toBeGreaterThanOrEqual(before - 1000);
    // Realtime forgets its cached answer, so the live page opens at once.
    expect(notices()).toEqual([{ sessionIds: [sessionId], deleted: false }]);
    expect(await accessOf(sessionId, cy)).toEqual({
      role: 'participant',
      sessionType: 'video',
      state: 'not_started',
    });
    expect((await myConsent(sessionId).expect(200)).body.res).toMatchObject({
      required: false,
      acceptedAt: agreed.acceptedAt,
    });
    expect((await ownerView(sessionId)).acceptances).toEqual([
      {
        userId: cy.user.id,
        name: cy.user.name,
        email: cy.user.email,
        version: 1,
        sha256: sha256(text),
        acceptedAt: agreed.acceptedAt,
        withdrawnAt: null,
      },
    ]);

    // Agreeing again keeps the first agreement and tells nobody.
    h.realtime.reset();
    expect((await accept(sessionId, sha256(text)).expect(200)).body.res.acceptance).toEqual(agreed);
    expect((await tableRows(sessionId)).acceptances).toHaveLength(1);
    expect(notices()).toEqual([]);

    // A new text asks again; the old hash no longer fits.
    await setText(sessionId, 'A changed text.').expect(200);
    expect((await myConsent(sessionId).expect(200)).body.res).toMatchObject({
      required: true,
      acceptedAt: null,
    });
    expect(await accessOf(sessionId, cy)).toMatchObject({ consentPending: true });
    expect((await accept(sessionId, sha256(text)).expect(409)).body.res.message).toBe(CONSENT_TEXTS.changed);
    await accept(sessionId, sha256('A changed text.')).expect(200);
    expect((await ownerView(sessionId)).acceptances.map((a) => a.version)).toEqual([2, 1]);
  });

  it('marks only the participants who have not agreed, in a batch of checks, in order', async () => {
    const asked = await newSession('Everyone');
    const free = await newSession('Everyone');
    await setText(asked, 'Please agree.').expect(200);
    const dee = h.person('participant', { email: 'dee@uni.test' });
    await accept(asked, sha256('Please agree.'), dee).expect(200);
    const items = [
      { sessionId: asked, userId: cy.user.id, email: cy.user.email },
      { sessionId: free, userId: cy.user.id, email: cy.user.email },
      { sessionId: asked, userId: ada.user.id, email: ada.user.email },
      { sessionId: asked, userId: dee.user.id, email: dee.user.email },
      { sessionId: asked.toUpperCase(), userId: cy.user.id, email: cy.user.email },
      { sessionId: fakeId(), userId: cy.user.id, email: cy.user.email },
    ];
    const res = await h.http().post(internalRoutes.studiesAccessBatch.path).set(service).send({ items });
    expect(res.status).toBe(200);
    expect(res.body.res.access).toEqual([
      { role: 'participant', sessionType: 'video', state: 'not_started', consentPending: true },
      { role: 'participant', sessionType: 'video', state: 'not_started' },
      { role: 'owner', sessionType: 'video', state: 'not_started' },
      { role: 'participant', sessionType: 'video', state: 'not_started' },
      { role: 'participant', sessionType: 'video', state: 'not_started', consentPending: true },
      { role: 'none', sessionType: null },
    ]);
  });

  it('lets only the owner read and set the text, and only members read their own', async () => {
    const sessionId = await newSession();
    await setText(sessionId, 'Owner only.').expect(200);
    const bo = h.person('researcher', { email: 'bo@lab.test' });
    const outsider = h.person('participant', { email: 'otto@uni.test' });
    for (const user of [bo, outsider]) {
      await h.http().get('/getSessionConsent').query({ sessionId }).set(user.headers).expect(403);
      await setText(sessionId, 'Hijacked', user).expect(403);
      await myConsent(sessionId, user).expect(403);
      await accept(sessionId, sha256('Owner only.'), user).expect(403);
    }
    await setText(sessionId, 'By a participant', cy).expect(403);
    await h.http().get('/getSessionConsent').query({ sessionId }).set(cy.headers).expect(403);
    const own = await accept(sessionId, sha256('Owner only.'), ada).expect(403);
    expect(own.body.res.message).toBe(CONSENT_TEXTS.ownerAgrees);
    await h.http().get('/getSessionConsent').query({ sessionId: fakeId() }).set(ada.headers).expect(404);
    await setText(fakeId(), 'x').expect(404);
    await myConsent(fakeId()).expect(404);
    await h
      .http()
      .post('/acceptConsent')
      .send({ sessionId, sha256: sha256('Owner only.') })
      .expect(401);
    expect((await ownerView(sessionId)).consent).toMatchObject({ version: 1, text: 'Owner only.' });
    expect((await tableRows(sessionId)).acceptances).toEqual([]);
  });

  it('refuses a session that asks for no consent', async () => {
    const sessionId = await newSession();
    const res = await accept(sessionId, sha256('')).expect(409);
    expect(res.body.res.message).toBe(CONSENT_TEXTS.noConsent);
    await setText(sessionId, '').expect(200);
    expect((await accept(sessionId, sha256('')).expect(409)).body.res.message).toBe(CONSENT_TEXTS.noConsent);
  });

  it.each([
    ['too long a text', { text: 'a'.repeat(CONSENT_TEXT_MAX_CHARS + 1) }, /text: must be at most 20000/],
    ['a control character', { text: 'I agree\u0000' }, /text: must not contain control characters/],
    ['no text', {}, /text/],
    ['a number', { text: 42 }, /text: must be text/],
  ])('refuses %s with a 400 and stores nothing', async (_label, body, message) => {
    const sessionId = await newSession();
    const res = await h
      .http()
      .post('/setSessionConsent')
      .set(ada.headers)
      .send({ sessionId, ...body })
      .expect(400);
    expect(res.body.res.message).toMatch(message);
    expect(await tableRows(sessionId)).toEqual({ versions: [], acceptances: [] });
  });

  it.each([
    ['an upper-case hash', 'A'.repeat(64)],
    ['a short hash', 'abc'],
    ['no hash', undefined],
  ])('refuses an agreement with %s (400)', async (_label, hash) => {
    const sessionId = await newSession();
    await setText(sessionId, 'Text.').expect(200);
    const res = await accept(sessionId, hash as string).expect(400);
    expect(res.body.res.code).toBe('VALIDATION');
    expect((await tableRows(sessionId)).acceptances).toEqual([]);
  });

  describe('withdrawal, as far as studies goes', () => {
    it('changes nothing when records cannot delete (503), and refuses the owner and outsiders', async () => {
      const sessionId = await newSession();
      await setText(sessionId, 'Agree.').expect(200);
      await accept(sessionId, sha256('Agree.')).expect(200);
      h.realtime.reset();
      // The records stand-in does not serve the withdrawal route: records "cannot be reached".
      const failed = await h
        .http()
        .post('/withdrawFromSession')
        .set(cy.headers)
        .send({ sessionId })
        .expect(503);
      expect(failed.body.res).toMatchObject({ code: 'UNAVAILABLE' });
      expect(failed.body.res.message).toMatch(/^Nothing was withdrawn: .*Please try again\.$/);
      const [session] = await h.sql<{ scope: string[] }>('SELECT scope FROM sessions WHERE id = $1', [
        sessionId,
      ]);
      expect(session!.scope).toEqual([cy.user.email]);
      expect((await ownerView(sessionId)).acceptances).toMatchObject([{ withdrawnAt: null }]);
      expect(notices()).toEqual([]);

      const own = await h
        .http()
        .post('/withdrawFromSession')
        .set(ada.headers)
        .send({ sessionId })
        .expect(403);
      expect(own.body.res.message).toBe(CONSENT_TEXTS.ownerWithdraws);
      const outsider = h.person('participant', { email: 'otto@uni.test' });
      await h.http().post('/withdrawFromSession').set(outsider.headers).send({ sessionId }).expect(403);
      await h.http().post('/withdrawFromSession').set(cy.headers).send({ sessionId: fakeId() }).expect(404);
      await h.http().post('/withdrawFromSession').set(cy.headers).send({ sessionId: 'x' }).expect(400);
      expect(h.records.calls).toEqual([]);
    });
  });

  describe('data that goes with its session or its person', () => {
    it('exports every version and agreement of the sessions asked, to records', async () => {
      const one = await newSession();
      const two = await newSession('Everyone');
      await setText(one, 'First.').expect(200);
      await setText(one, 'Second.').expect(200);
      await accept(one, sha256('Second.')).expect(200);
      const res = await h
        .http()
        .post(internalRoutes.studiesConsentExport.path)
        .set(service)
        .send({ sessionIds: [one, two, fakeId()] })
        .expect(200);
      const { texts } = (res.body as { res: { texts: { sessionId: string; version: number }[] } }).res;
      expect(texts.map((t) => [t.sessionId, t.version])).toEqual([
        [one, 1],
        [one, 2],
      ]);
      expect(res.body.res.acceptances).toEqual([
        expect.objectContaining({
          sessionId: one,
          userId: cy.user.id,
          version: 2,
          sha256: sha256('Second.'),
        }),
      ]);
      await h
        .http()
        .post(internalRoutes.studiesConsentExport.path)
        .send({ sessionIds: [one] })
        .expect(403);
      await h
        .http()
        .post(internalRoutes.studiesConsentExport.path)
        .set(service)
        .send({ sessionIds: [] })
        .expect(400);
    });

    it('deletes the texts and agreements with the session, and a person’s agreements with their account', async () => {
      const kept = await newSession();
      const deleted = await newSession();
      for (const sessionId of [kept, deleted]) {
        await setText(sessionId, 'Agree.').expect(200);
        await accept(sessionId, sha256('Agree.')).expect(200);
      }
      await h.http().post('/deleteSession').set(ada.headers).send({ sessionId: deleted }).expect(200);
      expect(await tableRows(deleted)).toEqual({ versions: [], acceptances: [] });
      expect((await tableRows(kept)).acceptances).toHaveLength(1);

      await h
        .http()
        .post(internalRoutes.studiesUserDataDelete.path)
        .set(service)
        .send({ userId: cy.user.id, email: cy.user.email })
        .expect(200);
      expect(await h.sql('SELECT 1 FROM consent_acceptances WHERE user_id = $1', [cy.user.id])).toEqual([]);
      expect((await tableRows(kept)).versions).toHaveLength(1);
    });
  });
});
