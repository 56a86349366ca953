import { randomUUID } from 'node:crypto';
import { AuditLogRepository } from '../src/audit/audit-log.repository';
import { MessagesRepository } from '../src/messages/messages.repository';
import { PixelsRepository } from '../src/pixels/pixels.repository';
import { PlaybackRepository } from '../src/playback/playback.repository';
import type { SessionRecordRow, SessionRecordTable } from '../src/session-record';
import { startRecords, type RecordsHarness } from './support/records-harness';

/**
 * The repositories' inOrder, the reader of every export: it reads its pages with pg's callback API
 * (RecordsDb.leanRows says why), so what it gives must be what the repository's ordinary reads give:
 * the same rows, in the order key's order, one session's only, across page boundaries.
 */
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('export_pages');
});
afterAll(() => h.close());

type Table = SessionRecordTable<SessionRecordRow>;
const repository = (token: new (...args: never[]) => Table) => h.app.get<Table>(token);

async function paged(records: Table, sessionId: string, pageRows: number): Promise<SessionRecordRow[]> {
  const read: SessionRecordRow[] = [];
  for await (const record of records.inOrder(sessionId, pageRows)) read.push(record);
  return read;
}

/** A session with records of every kind: nulls and values, a reaction, an edit and a deletion. */
async function sessionWithRecords(): Promise<string> {
  const sessionId = await h.session({ scope: null });
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
    .set(h.as('owner').headers)
    .send({ messageId: messageIds[0], message: 'edited' })
    .expect(200);
  await h
    .http()
    .post('/deleteMessage')
    .set(h.as('owner').headers)
    .send({ messageId: messageIds[4] })
    .expect(200);
  return sessionId;
}

describe('inOrder', () => {
  it.each([
    ['messages', MessagesRepository],
    ['pixels', PixelsRepository],
    ['playback', PlaybackRepository],
    ['audit log', AuditLogRepository],
  ] as const)('gives the %s as the repository reads them, in order, page after page', async (_, token) => {
    const sessionId = await sessionWithRecords();
    // Another session's records, which must stay out.
    await sessionWithRecords();
    const records = repository(token);
    const found = await records.page(sessionId, '0', 10_000);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const row of found) expect((row as { createdAt?: unknown }).createdAt).toBeInstanceOf(Date);
    for (const pageRows of [1, 2, found.length, 1000]) {
      expect(await paged(records, sessionId, pageRows)).toEqual(found);
    }
  });

  it('gives nothing for a session without records', async () => {
    expect(await paged(repository(MessagesRepository), await h.session(), 2)).toEqual([]);
  });
});
