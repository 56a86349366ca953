import { getRepositoryToken } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { AuditLogEntity } from '../src/audit/audit-log.entity';
import { MessageEntity } from '../src/messages/message.entity';
import { PixelEntity } from '../src/pixels/pixel.entity';
import { PlaybackEntity } from '../src/playback/playback.entity';
import { recordsInOrder, type SessionRecordEntity } from '../src/session-record';
import { startRecords, type RecordsHarness } from './support/records-harness';

/**
 * recordsInOrder, the reader of every export: it reads its pages with pg's callback API and hydrates
 * the rows itself (session-record.ts says why), so what it gives must be what TypeORM's find gives:
 * the same entities, in the order key's order, one session's only, across page boundaries.
 */
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('export_pages');
});
afterAll(() => h.close());

const repository = <T extends SessionRecordEntity>(entity: new () => T) =>
  h.app.get<Repository<T>>(getRepositoryToken(entity));

async function paged<T extends SessionRecordEntity>(
  records: Repository<T>,
  sessionId: string,
  pageRows: number,
): Promise<T[]> {
  const read: T[] = [];
  for await (const record of recordsInOrder(records, sessionId, pageRows)) read.push(record);
  return read;
}

/** A session with records of every kind: nulls and values, a reaction, an edit and a deletion. */
async function sessionWithRecords(): Promise<string> {
  const sessionId = await h.newSession({ scope: null });
  const messageIds: string[] = [];
  for (const [i, extra] of [
    { message: 'typed, with "quotes"' },
    { message: 'Pat reacted with 👍', actionId: randomUUID(), videoTime: 12.5 },
    { message: 'at zero', videoTime: 0 },
    { message: 'line one\nline two', videoTime: 3.25 },
    { message: 'to be deleted' },
  ].entries()) {
    const appended = await h.appendMessage(sessionId, { ...extra, message: `${i} ${extra.message}` });
    messageIds.push(appended.message_id);
  }
  for (const [x, y, videoTime] of [
    [0, 1, undefined],
    [0.5, 0.25, 7.125],
    [1, 0.1 + 0.2, 0],
  ] as const) {
    await h.appendPixel(sessionId, { x, y, color: '#abc', videoTime });
  }
  for (const [event, videoTime] of [
    ['play', 0],
    ['pause', 1.5],
    ['seek', 90.25],
  ] as const) {
    await h.appendPlayback(sessionId, { event, videoTime, playbackRate: 1.5 });
  }
  // The audit log: jsonb before and after, and an after of null.
  await h
    .http()
    .post('/editMessage')
    .set(h.as('owner'))
    .send({ messageId: messageIds[0], message: 'edited' })
    .expect(200);
  await h.http().post('/deleteMessage').set(h.as('owner')).send({ messageId: messageIds[4] }).expect(200);
  return sessionId;
}

describe('recordsInOrder', () => {
  it.each([
    ['messages', MessageEntity],
    ['pixels', PixelEntity],
    ['playback', PlaybackEntity],
    ['audit log', AuditLogEntity],
  ] as const)('gives the %s as TypeORM finds them, in order, page after page', async (_, entity) => {
    const sessionId = await sessionWithRecords();
    // Another session's records, which must stay out.
    await sessionWithRecords();
    const records = repository<SessionRecordEntity>(entity);
    const found = await records.find({ where: { sessionId }, order: { seq: 'ASC' } });
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const pageRows of [1, 2, found.length, 1000]) {
      const read = await paged(records, sessionId, pageRows);
      expect(read).toEqual(found);
      for (const record of read) expect(record).toBeInstanceOf(entity);
    }
  });

  it('gives nothing for a session without records', async () => {
    expect(await paged(repository(MessageEntity), await h.newSession(), 2)).toEqual([]);
  });
});
