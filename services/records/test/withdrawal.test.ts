import type { AuthUser } from '@uis/kit';
import { CONSENT_TEXTS, internalRoutes, type Withdrawal } from '@uis/proto';
import { parse } from 'csv-parse/sync';
import { createHash } from 'node:crypto';
import { rawBody, startRecords, type Caller, type RecordsHarness } from './support/records-harness';
import { unzip } from './support/unzip';

/**
 * A participant withdraws from a session (studies' route, the real studies calling the
 * real records), and a participant must agree to a session's consent text before writing to it.
 */
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('withdrawal');
});
afterAll(async () => {
  await h.close();
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
type Someone = { user: AuthUser; headers: Record<string, string> };

const studies = (path: string, headers: Record<string, string>, body: object) =>
  h.studiesHttp().post(path).set(headers).send(body);
const setConsent = (sessionId: string, text: string) =>
  studies('/setSessionConsent', h.as('owner').headers, { sessionId, text }).expect(200);
const agree = (sessionId: string, text: string, headers: Record<string, string>) =>
  studies('/acceptConsent', headers, { sessionId, sha256: sha256(text) });
const withdraw = (sessionId: string, headers: Record<string, string>) =>
  studies('/withdrawFromSession', headers, { sessionId });
const withdrawalsOf = (sessionId: string, caller: Caller = 'owner') =>
  h.http().get('/getSessionWithdrawals').query({ sessionId }).set(h.as(caller).headers);

const write = async (sessionId: string, who: AuthUser, label: string) => {
  const author = { userId: who.id, email: who.email, name: who.name };
  const message = await h.appendMessage(sessionId, { message: `${label} says hi` }, author);
  await h.appendMessage(
    sessionId,
    { message: `${label} reacted with Clap`, actionId: '2c0f6d1e-57b5-4b7a-9d7a-6a1f0c2b3d4e' },
    author,
  );
  await h.appendPixel(sessionId, { x: 0.5, y: 0.5, color: '#fff' }, author);
  return message;
};

/** What records holds of a person in a session. */
const heldOf = async (sessionId: string, userId: string) => {
  const count = async (sql: string) => (await h.pg.query<{ n: number }>(sql, [sessionId, userId])).rows[0]!.n;
  return {
    messages: await count(
      'SELECT count(*)::int AS n FROM messages WHERE session_id = $1 AND author_user_id = $2',
    ),
    clicks: await count(
      'SELECT count(*)::int AS n FROM pixels WHERE session_id = $1 AND author_user_id = $2',
    ),
    audit: await count(
      'SELECT count(*)::int AS n FROM audit_log WHERE session_id = $1 AND record_author_user_id = $2',
    ),
  };
};

async function exportTables(sessionId: string): Promise<Record<string, Record<string, string>[]>> {
  const res = await h
    .http()
    .get('/exportStudy')
    .set(h.as('owner').headers)
    .query({ sessionId })
    .buffer(true)
    .parse(rawBody)
    .expect(200);
  const tables: Record<string, Record<string, string>[]> = {};
  for (const file of await unzip(res.body as Buffer)) {
    if (!file.name.endsWith('.csv')) continue;
    tables[file.name] = parse<Record<string, string>>(file.bytes.toString('utf8'), {
      columns: true,
    });
  }
  return tables;
}

describe('withdrawing from a session', () => {
  it("deletes the participant's records in that session only, logs it, ends their agreement and scope", async () => {
    const pat = h.as('participant');
    const pam = h.person('participant', { name: 'Pam Participant' });
    const sessionId = await h.session({ scope: [pat.user.email, pam.user.email] });
    const other = await h.session({ scope: [pat.user.email] });
    await setConsent(sessionId, 'I agree to be recorded.');
    await agree(sessionId, 'I agree to be recorded.', pat.headers).expect(200);
    const patsMessage = await write(sessionId, pat.user, 'Pat');
    await write(sessionId, pam.user, 'Pam');
    await write(other, pat.user, 'Pat elsewhere');
    // The researcher edits Pat's message: the audit entry holds its text, so it must go too.
    await h
      .http()
      .post('/editMessage')
      .set(h.as('owner').headers)
      .send({ messageId: patsMessage.message_id, message: 'edited' })
      .expect(200);
    expect(await heldOf(sessionId, pat.user.id)).toEqual({ messages: 2, clicks: 1, audit: 1 });
    const deviceCheck = {
      browserName: 'Firefox',
      browserVersion: '153',
      camera: 'pass',
      microphone: 'pass',
      speakers: 'pass',
      stun: 'pass',
      turn: 'fail',
      rtt: 'pass',
      rttMs: 20,
    };
    for (const [id, headers] of [
      [sessionId, pat.headers],
      [other, pat.headers],
    ] as const)
      await h
        .http()
        .post('/saveDeviceCheck')
        .set(headers)
        .send({ sessionId: id, ...deviceCheck })
        .expect(200);
    const deviceChecksOf = async (id: string) =>
      (
        await h.pg.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM records.device_checks WHERE session_id = $1 AND author_user_id = $2',
          [id, pat.user.id],
        )
      ).rows[0]!.n;

    const res = await withdraw(sessionId, pat.headers).expect(200);
    const withdrawal = res.body.res.withdrawal as Withdrawal;
    expect(withdrawal).toEqual({
      withdrawal_id: expect.any(String),
      time: expect.any(String),
      userId: pat.user.id,
      name: pat.user.name,
      email: pat.user.email,
      messages: 2,
      clicks: 1,
    });

    // Gone from this session; the other session's records and the other participant's stay.
    expect(await heldOf(sessionId, pat.user.id)).toEqual({ messages: 0, clicks: 0, audit: 0 });
    expect(await heldOf(other, pat.user.id)).toEqual({ messages: 2, clicks: 1, audit: 0 });
    expect(await heldOf(sessionId, pam.user.id)).toEqual({ messages: 2, clicks: 1, audit: 0 });
    // Their device checks of that session go too (the browser and what passed are theirs).
    expect([await deviceChecksOf(sessionId), await deviceChecksOf(other)]).toEqual([0, 1]);

    // The researcher sees it; nobody else does.
    expect((await withdrawalsOf(sessionId).expect(200)).body.res.withdrawals).toEqual([withdrawal]);
    expect((await withdrawalsOf(other).expect(200)).body.res.withdrawals).toEqual([]);
    for (const caller of ['participant', 'outsider', 'otherResearcher'] as const) {
      await withdrawalsOf(sessionId, caller).expect(403);
    }
    await withdrawalsOf(sessionId, 'anonymous').expect(401);

    // Their agreement ended when they withdrew, and they left the scope (the session is no longer theirs).
    const consent = await h
      .studiesHttp()
      .get('/getSessionConsent')
      .query({ sessionId })
      .set(h.as('owner').headers)
      .expect(200);
    expect(consent.body.res.acceptances).toEqual([
      expect.objectContaining({ userId: pat.user.id, withdrawnAt: withdrawal.time }),
    ]);
    await h.studiesHttp().get('/getSessionInfo').query({ sessionId }).set(pat.headers).expect(403);
    const listed = await h.studiesHttp().get('/getParticipantSessions').set(pat.headers).expect(200);
    const sessions = (listed.body as { res: { sessions: { session_id: string }[] } }).res.sessions;
    expect(sessions.map((s) => s.session_id)).toEqual([other]);
    await h.studiesHttp().get('/getSessionInfo').query({ sessionId }).set(pam.headers).expect(200);
    // Off the participant list (with any panel ids); Pam, who opened it, stays.
    const people = await h
      .studiesHttp()
      .get('/getSessionPeople')
      .query({ sessionId })
      .set(h.as('owner').headers);
    expect((people.body.res.people as { email: string }[]).map((person) => person.email)).toEqual([
      pam.user.email,
    ]);
    await withdraw(sessionId, pat.headers).expect(403);

    // The export shows the agreement (ended), the text, and the withdrawal with its counts.
    const tables = await exportTables(sessionId);
    expect(tables['consent-texts.csv']).toEqual([
      {
        session_id: sessionId,
        version: '1',
        sha256: sha256('I agree to be recorded.'),
        created_at: expect.any(String),
        text: 'I agree to be recorded.',
      },
    ]);
    expect(tables['consents.csv']).toEqual([
      {
        session_id: sessionId,
        participant_id: expect.stringMatching(/^P-[0-9a-f]{12}$/),
        version: '1',
        sha256: sha256('I agree to be recorded.'),
        accepted_at: expect.any(String),
        withdrawn_at: withdrawal.time,
      },
    ]);
    expect(tables['withdrawals.csv']).toEqual([
      {
        session_id: sessionId,
        withdrawal_id: withdrawal.withdrawal_id,
        participant_id: tables['consents.csv']![0]!.participant_id,
        withdrawn_at: withdrawal.time,
        messages_deleted: '2',
        clicks_deleted: '1',
      },
    ]);
    // Pat is no longer among the session's participants; Pam still is.
    const participants = tables['participants.csv']!;
    expect(participants).toHaveLength(1);
    expect(participants[0]!.participant_id).not.toBe(tables['consents.csv']![0]!.participant_id);
  });

  it('in an Everyone session: the scope stays, a retry logs no second withdrawal, and a return is a new one', async () => {
    const ivy: Someone = h.person('participant', { name: 'Ivy Participant' });
    const sessionId = await h.session({ scope: null });
    await write(sessionId, ivy.user, 'Ivy');
    const first = (await withdraw(sessionId, ivy.headers).expect(200)).body.res.withdrawal as Withdrawal;
    expect(first).toMatchObject({ messages: 2, clicks: 1 });
    // Still listed (Everyone), so a second click (or studies' retry) reaches records again: same answer.
    const again = (await withdraw(sessionId, ivy.headers).expect(200)).body.res.withdrawal as Withdrawal;
    expect(again).toEqual(first);
    const direct = await h
      .internal(internalRoutes.recordsWithdrawParticipant, {
        sessionId,
        userId: ivy.user.id,
        email: ivy.user.email,
        name: ivy.user.name,
      })
      .expect(200);
    expect(direct.body.res.withdrawal).toEqual(first);
    expect((await withdrawalsOf(sessionId).expect(200)).body.res.withdrawals).toHaveLength(1);

    // Back and writing again, then gone again: a second withdrawal with its own counts.
    await write(sessionId, ivy.user, 'Ivy again');
    const second = (await withdraw(sessionId, ivy.headers).expect(200)).body.res.withdrawal as Withdrawal;
    expect(second).toMatchObject({ messages: 2, clicks: 1 });
    expect(second.withdrawal_id).not.toBe(first.withdrawal_id);
    const listed = (await withdrawalsOf(sessionId).expect(200)).body.res.withdrawals as Withdrawal[];
    expect(listed.map((w) => w.withdrawal_id)).toEqual([first.withdrawal_id, second.withdrawal_id]);
  });

  it('a participant who wrote nothing still leaves a logged withdrawal; the owner cannot withdraw', async () => {
    const quiet = h.person('participant', { name: 'Quinn Quiet' });
    const sessionId = await h.session({ scope: [quiet.user.email] });
    const res = await withdraw(sessionId, quiet.headers).expect(200);
    expect(res.body.res.withdrawal).toMatchObject({ userId: quiet.user.id, messages: 0, clicks: 0 });
    const own = await withdraw(sessionId, h.as('owner').headers).expect(403);
    expect(own.body.res.message).toBe(CONSENT_TEXTS.ownerWithdraws);
    expect((await withdrawalsOf(sessionId).expect(200)).body.res.withdrawals).toHaveLength(1);
  });

  it('keeps names and e-mails out of the consent CSVs, and neutralises formulas in the texts', async () => {
    const mallory = h.person('participant', { name: '=HYPERLINK("http://evil.test")' });
    const sessionId = await h.session({ scope: [mallory.user.email] });
    await setConsent(sessionId, '+1 I agree');
    await agree(sessionId, '+1 I agree', mallory.headers).expect(200);
    await write(sessionId, mallory.user, 'Mallory');
    await withdraw(sessionId, mallory.headers).expect(200);
    const tables = await exportTables(sessionId);
    for (const file of ['consents.csv', 'withdrawals.csv']) {
      expect(JSON.stringify(tables[file])).not.toContain('HYPERLINK');
      expect(JSON.stringify(tables[file])).not.toContain(mallory.user.email);
    }
    expect(tables['consent-texts.csv']![0]!.text).toBe("'+1 I agree");
  });

  it('goes with its session, and with the account of the person who withdrew', async () => {
    const gone = h.person('participant', { name: 'Gina Gone' });
    const deletedSession = await h.session({ scope: null });
    const keptSession = await h.session({ scope: null });
    await withdraw(deletedSession, gone.headers).expect(200);
    await withdraw(keptSession, h.as('outsider').headers).expect(200);
    await withdraw(keptSession, gone.headers).expect(200);
    await h
      .studiesHttp()
      .post('/deleteSession')
      .set(h.as('owner').headers)
      .send({ sessionId: deletedSession })
      .expect(200);
    const rows = async (sql: string, value: string) => (await h.pg.query(sql, [value])).rowCount;
    expect(await rows('SELECT 1 FROM withdrawals WHERE session_id = $1', deletedSession)).toBe(0);
    await h
      .internal(internalRoutes.recordsUserDataDelete, { userId: gone.user.id, email: gone.user.email })
      .expect(200);
    expect(await rows('SELECT 1 FROM withdrawals WHERE author_user_id = $1', gone.user.id)).toBe(0);
    expect(await rows('SELECT 1 FROM withdrawals WHERE session_id = $1', keptSession)).toBe(1);
  });
});

describe('consent before writing', () => {
  it('refuses a participant’s message until they agree to the current text (CONSENT_REQUIRED)', async () => {
    const sessionId = await h.session();
    await setConsent(sessionId, 'Agree first.');
    const send = (caller: Caller) =>
      h.http().post('/addMessage').set(h.as(caller).headers).send({ sessionId, message: 'hello' });
    const refused = await send('participant').expect(403);
    expect(refused.body.res).toEqual({ message: CONSENT_TEXTS.required, code: 'CONSENT_REQUIRED' });
    expect(await heldOf(sessionId, h.users.participant.id)).toMatchObject({ messages: 0 });
    // The owner is never asked.
    await send('owner').expect(200);
    await agree(sessionId, 'Agree first.', h.as('participant').headers).expect(200);
    await send('participant').expect(200);
    // A new text asks again.
    await setConsent(sessionId, 'Agree again.');
    await send('participant').expect(403);
  });
});
