import { createTestDatabase } from '@uis/kit/testing';
import { MessageRecord, PlaybackRecord, internalRoutes, orderMessages } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { recordsDatabase } from '../src/records.module';
import { startRecords, type RecordsHarness } from './support/records-harness';

/**
 * `seq`, the chat's (and the playback log's) order, counts per session: what a participant sees of
 * it says nothing of how much other sessions wrote, and the live order (compareMessages) holds.
 */
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('session_order');
});
afterAll(() => h.close());

const addMessage = (sessionId: string, message: string) => h.addMessage('participant', sessionId, message);
const appendMessages = (items: { sessionId: string; message: string }[]) =>
  h.appendMessages(items.map((item) => ({ ...item, ...h.author('owner') })));
const participantsView = async (sessionId: string) => {
  const res = await h
    .http()
    .get('/getMessages')
    .set(h.as('participant').headers)
    .query({ sessionId })
    .expect(200);
  return (res.body.res.messages as unknown[]).map((message) => MessageRecord.parse(message));
};
const appendPlayback = (sessionId: string, videoTime: number) =>
  h.appendPlayback(sessionId, { event: 'seek', videoTime, promptId: null });

describe('messages count seq per session', () => {
  it('a participant’s view of seq does not change when other sessions write', async () => {
    const sessionId = await h.session();
    const first = await addMessage(sessionId, 'first');
    expect(first.seq).toBe('1');
    const before = await participantsView(sessionId);

    // Other sessions write, over REST and through realtime's group commit.
    for (const other of [await h.session(), await h.session()]) {
      await h
        .http()
        .post('/addMessage')
        .set(h.as('owner').headers)
        .send({ sessionId: other, message: 'x' })
        .expect(200);
      await appendMessages(Array.from({ length: 25 }, (_, i) => ({ sessionId: other, message: `${i}` })));
    }

    expect(await participantsView(sessionId)).toEqual(before);
    const second = await addMessage(sessionId, 'second');
    expect(second.seq).toBe('2');
    expect((await participantsView(sessionId)).map((message) => message.seq)).toEqual(['1', '2']);
  });

  it('a group commit spanning sessions numbers each session’s items in the order given', async () => {
    const [a, b, c] = [await h.session(), await h.session(), await h.session()];
    await addMessage(a, 'before');
    const stored = await appendMessages(
      [a, b, a, c, b, a].map((sessionId, i) => ({ sessionId, message: `item ${i}` })),
    );
    expect(stored.map((message) => [message.message, message.seq])).toEqual([
      ['item 0', '2'],
      ['item 1', '1'],
      ['item 2', '3'],
      ['item 3', '1'],
      ['item 4', '2'],
      ['item 5', '4'],
    ]);
    const listed = await participantsView(a);
    expect(listed.map((message) => message.message)).toEqual(['before', 'item 0', 'item 2', 'item 5']);
    expect(orderMessages([...listed].reverse())).toEqual(listed);
  });

  it('concurrent appends to one session take distinct seqs, each call’s in its order', async () => {
    const sessionId = await h.session();
    const calls = await Promise.all(
      Array.from({ length: 8 }, (_, c) =>
        appendMessages(Array.from({ length: 10 }, (_, i) => ({ sessionId, message: `${c}:${i}` }))),
      ),
    );
    const seqs = calls.flat().map((message) => Number(message.seq));
    expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    for (const answered of calls) {
      const own = answered.map((message) => Number(message.seq));
      expect(own).toEqual(Array.from({ length: 10 }, (_, i) => own[0]! + i));
    }
  });

  it('a deleted session starts again from 1 if anything writes to its id', async () => {
    const sessionId = await h.session();
    await appendMessages([{ sessionId, message: 'a' }]);
    await h.internal(internalRoutes.recordsSessionDataDelete, { sessionIds: [sessionId] }).expect(200);
    const [again] = await appendMessages([{ sessionId, message: 'b' }]);
    expect(again!.seq).toBe('1');
  });
});

describe('the playback log counts seq per session', () => {
  it('an entry’s seq says nothing of other sessions', async () => {
    const [a, b] = [await h.session(), await h.session()];
    expect((await appendPlayback(a, 1)).seq).toBe('1');
    expect((await appendPlayback(b, 1)).seq).toBe('1');
    expect((await appendPlayback(b, 2)).seq).toBe('2');
    expect((await appendPlayback(a, 2)).seq).toBe('2');
    const res = await h
      .http()
      .get('/getPlayback')
      .set(h.as('owner').headers)
      .query({ sessionId: a })
      .expect(200);
    expect((res.body.res.playback as PlaybackRecord[]).map((entry) => [entry.seq, entry.videoTime])).toEqual([
      ['1', 1],
      ['2', 2],
    ]);
  });
});

describe('the migration to per-session order', () => {
  it('renumbers existing messages and playback 1, 2, ... per session in their old order, and goes on from there', async () => {
    const db = await createTestDatabase('order_migration');
    const { schema, migrations } = recordsDatabase();
    const open = (list: typeof migrations) =>
      new DataSource({
        type: 'postgres',
        url: db.url,
        schema,
        migrations: list,
        migrationsTableName: 'migrations',
        extra: { options: `-c search_path="${schema}"` },
      }).initialize();
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    try {
      await sql.query(`CREATE SCHEMA ${schema}`);
      const before = await open(migrations.slice(0, -1));
      await before.runMigrations();
      await before.destroy();

      // Sessions written in turns, as before: one identity across them.
      const [a, b] = [randomUUID(), randomUUID()];
      const author = [randomUUID(), 'e@x.test', 'E'];
      for (const [i, sessionId] of [a, b, a, b, b, a].entries()) {
        await sql.query(
          `INSERT INTO records.messages (session_id, author_user_id, author_email, name, message) VALUES ($1, $2, $3, $4, $5)`,
          [sessionId, ...author, `m${i}`],
        );
        await sql.query(
          `INSERT INTO records.playback (session_id, author_user_id, author_email, name, event, video_time, playback_rate)
           VALUES ($1, $2, $3, $4, 'seek', $5, 1)`,
          [sessionId, ...author, i],
        );
      }
      const order = async () =>
        (
          await sql.query<{ session_id: string; seq: string; message: string; video_time: number }>(
            `SELECT m.session_id, m.seq, m.message, p.video_time FROM records.messages m
             JOIN records.playback p ON p.session_id = m.session_id AND p.seq = m.seq
             ORDER BY m.session_id = $1 DESC, m.seq`,
            [a],
          )
        ).rows.map((row) => [row.session_id === a ? 'a' : 'b', row.seq, row.message, row.video_time]);

      const after = await open(migrations);
      await after.runMigrations({ transaction: 'each' });
      expect(await order()).toEqual([
        ['a', '1', 'm0', 0],
        ['a', '2', 'm2', 2],
        ['a', '3', 'm5', 5],
        ['b', '1', 'm1', 1],
        ['b', '2', 'm3', 3],
        ['b', '3', 'm4', 4],
      ]);
      // A writer that leaves seq out (the previous code during a rolling deploy) goes on per session.
      await sql.query(
        `INSERT INTO records.messages (session_id, author_user_id, author_email, name, message) VALUES ($1, $2, $3, $4, 'm6')`,
        [a, ...author],
      );
      const { rows } = await sql.query<{ seq: string }>(
        `SELECT seq FROM records.messages WHERE message = 'm6'`,
      );
      expect(rows).toEqual([{ seq: '4' }]);

      // Undone: an identity again, past every value, so each session's new rows still come last.
      await after.undoLastMigration({ transaction: 'each' });
      await sql.query(
        `INSERT INTO records.messages (session_id, author_user_id, author_email, name, message) VALUES ($1, $2, $3, $4, 'm7')`,
        [b, ...author],
      );
      const { rows: bRows } = await sql.query<{ message: string }>(
        `SELECT message FROM records.messages WHERE session_id = $1 ORDER BY seq`,
        [b],
      );
      expect(bRows.map((row) => row.message)).toEqual(['m1', 'm3', 'm4', 'm7']);
      await after.destroy();
    } finally {
      await sql.end();
      await db.drop();
    }
  });
});
