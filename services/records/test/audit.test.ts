import { internalRoutes } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { startRecords, type Caller, type CastName, type RecordsHarness } from './support/records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('audit');
});
afterAll(async () => {
  await h.close();
});

interface AuditRow {
  session_id: string;
  author_user_id: string;
  author_email: string;
  name: string;
  kind: string;
  record_id: string;
  record_author_user_id: string;
  before: Record<string, unknown>;
  after: Record<string, unknown> | null;
  created_at: Date;
}

const auditOf = async (sessionId: string): Promise<AuditRow[]> =>
  (await h.pg.query<AuditRow>('SELECT * FROM audit_log WHERE session_id = $1 ORDER BY seq', [sessionId]))
    .rows;
const countAudit = async (): Promise<number> =>
  (await h.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;

const message = (sessionId: string, text: string, by: CastName = 'participant') =>
  h.appendMessage(sessionId, { message: text, videoTime: 7 }, by);
const pixel = (sessionId: string, by: CastName = 'participant') =>
  h.appendPixel(sessionId, { x: 0.25, y: 0.75, color: '#123' }, by);
const post = (path: string, body: object, caller: Caller = 'owner') =>
  h.http().post(path).set(h.as(caller).headers).send(body);

describe('the audit log', () => {
  it('keeps an edit: who, when, which message of which session, and the message before and after', async () => {
    const sessionId = await h.session();
    const sent = await message(sessionId, 'original');
    const before = Date.now();
    await post('/editMessage', { messageId: sent.message_id, message: 'changed' }).expect(200);

    const [entry, ...more] = await auditOf(sessionId);
    expect(more).toEqual([]);
    const snapshot = {
      message_id: sent.message_id,
      time: sent.time,
      videoTime: 7,
      name: h.users.participant.name,
      email: h.users.participant.email,
      actionId: null,
    };
    expect(entry).toEqual({
      id: expect.any(String),
      seq: expect.any(String),
      session_id: sessionId,
      author_user_id: h.users.owner.id,
      author_email: h.users.owner.email,
      name: h.users.owner.name,
      kind: 'editMessage',
      record_id: sent.message_id,
      record_author_user_id: h.users.participant.id,
      before: { ...snapshot, message: 'original' },
      after: { ...snapshot, message: 'changed' },
      created_at: expect.any(Date),
    });
    expect(entry!.created_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('keeps a deleted message and a deleted click as they were, with no after', async () => {
    const sessionId = await h.session();
    const sent = await message(sessionId, 'bye');
    const click = await pixel(sessionId);
    await post('/deleteMessage', { messageId: sent.message_id }).expect(200);
    await post('/deletePixel', { pixelId: click.pixel_id }).expect(200);

    const entries = await auditOf(sessionId);
    expect(entries.map((e) => [e.kind, e.record_id, e.author_user_id, e.after])).toEqual([
      ['deleteMessage', sent.message_id, h.users.owner.id, null],
      ['deletePixel', click.pixel_id, h.users.owner.id, null],
    ]);
    expect(entries[0]!.before).toEqual(
      expect.objectContaining({ message_id: sent.message_id, message: 'bye' }),
    );
    expect(entries[1]!.before).toEqual({
      pixel_id: click.pixel_id,
      time: click.time,
      name: h.users.participant.name,
      email: h.users.participant.email,
      color: '#123',
      x: 0.25,
      y: 0.75,
      videoTime: null,
      sessionId,
    });
  });

  it('is written in the same transaction as the change: when it cannot be written, nothing changes', async () => {
    const sessionId = await h.session();
    const sent = await message(sessionId, 'stays');
    const click = await pixel(sessionId);
    await h.pg.query('ALTER TABLE audit_log RENAME TO audit_log_away');
    try {
      await post('/editMessage', { messageId: sent.message_id, message: 'lost' }).expect(500);
      await post('/deleteMessage', { messageId: sent.message_id }).expect(500);
      await post('/deletePixel', { pixelId: click.pixel_id }).expect(500);
    } finally {
      await h.pg.query('ALTER TABLE audit_log_away RENAME TO audit_log');
    }
    const listed = await h
      .http()
      .get('/getMessages')
      .set(h.as('owner').headers)
      .query({ sessionId })
      .expect(200);
    expect((listed.body.res.messages as { message: string }[]).map((m) => m.message)).toEqual(['stays']);
    const pixels = await h
      .http()
      .get('/getPixels')
      .set(h.as('owner').headers)
      .query({ sessionId })
      .expect(200);
    expect(pixels.body.res.pixels).toHaveLength(1);
    expect(await auditOf(sessionId)).toEqual([]);
  });

  it('logs nothing for a refused change', async () => {
    const sessionId = await h.session();
    const sent = await message(sessionId, 'mine');
    const click = await pixel(sessionId);
    const count = await countAudit();
    for (const caller of ['participant', 'otherResearcher', 'anonymous'] as const) {
      await post('/editMessage', { messageId: sent.message_id, message: 'x' }, caller).expect(
        caller === 'anonymous' ? 401 : 403,
      );
      await post('/deleteMessage', { messageId: sent.message_id }, caller).expect(
        caller === 'anonymous' ? 401 : 403,
      );
      await post('/deletePixel', { pixelId: click.pixel_id }, caller).expect(
        caller === 'anonymous' ? 401 : 403,
      );
    }
    await post('/editMessage', { messageId: randomUUID(), message: 'x' }).expect(404);
    await post('/deletePixel', { pixelId: randomUUID() }).expect(404);
    expect(await countAudit()).toBe(count);
  });
});

describe('the audit log when data is deleted', () => {
  /** A session with an edit of the participant's message and a deletion of their click. */
  const audited = async (by: CastName = 'participant') => {
    const sessionId = await h.session({ scope: null });
    const sent = await message(sessionId, 'text', by);
    await post('/editMessage', { messageId: sent.message_id, message: 'edited' }).expect(200);
    await post('/deletePixel', { pixelId: (await pixel(sessionId, by)).pixel_id }).expect(200);
    return sessionId;
  };

  it('deleting sessions deletes their audit log, and only theirs', async () => {
    const [gone, kept] = [await audited(), await audited()];
    await h.internal(internalRoutes.recordsSessionDataDelete, { sessionIds: [gone] }).expect(200);
    expect(await auditOf(gone)).toEqual([]);
    expect(await auditOf(kept)).toHaveLength(2);
  });

  it('deleting a session in studies deletes its audit log here', async () => {
    const sessionId = await audited();
    await h.studiesHttp().post('/deleteSession').set(h.as('owner').headers).send({ sessionId }).expect(200);
    expect(await auditOf(sessionId)).toEqual([]);
  });

  it("deleting a user's account deletes the entries about what they wrote and the changes they made", async () => {
    const leaving = h.person('participant', { name: 'Leaving Lee' });
    const sessionId = await h.session({ scope: null });
    const theirs = await h.appendMessage(
      sessionId,
      { message: 'mine' },
      h.author({
        userId: leaving.user.id,
        email: leaving.user.email,
        name: leaving.user.name,
      }),
    );
    await post('/editMessage', { messageId: theirs.message_id, message: 'edited' }).expect(200);
    const others = await message(sessionId, 'not theirs');
    await post('/editMessage', { messageId: others.message_id, message: 'edited too' }).expect(200);
    const elsewhere = await audited();

    await h
      .internal(internalRoutes.recordsUserDataDelete, { userId: leaving.user.id, email: leaving.user.email })
      .expect(200);
    expect((await auditOf(sessionId)).map((e) => e.record_id)).toEqual([others.message_id]);
    expect(JSON.stringify(await auditOf(sessionId))).not.toContain(leaving.user.email);
    expect(await auditOf(elsewhere)).toHaveLength(2);

    // The researcher who made the changes leaves: their changes' entries go too.
    await h
      .internal(internalRoutes.recordsUserDataDelete, {
        userId: h.users.owner.id,
        email: h.users.owner.email,
      })
      .expect(200);
    expect(await auditOf(sessionId)).toEqual([]);
    expect(await auditOf(elsewhere)).toEqual([]);
  });
});
