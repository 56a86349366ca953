import {
  DATA_EXPORT_TABLES,
  RECORD_KINDS,
  STUDY_EXPORT_COLUMNS,
  internalRoutes,
  type DataExportTable,
} from '@uis/proto';
import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { rawBody, startRecords, type Caller, type RecordsHarness } from './support/records-harness';

// Three rows a page, so every export below crosses page boundaries of the streamed read.
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('export', { EXPORT_PAGE_ROWS: '3' });
});
afterAll(() => h.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PARTICIPANT_ID = /^P-[0-9a-f]{12}$/;

const exportOf = (sessionId: string, kind: DataExportTable, caller: Caller = 'owner') =>
  h
    .http()
    .get('/exportRecords')
    .set(h.as(caller).headers)
    .query({ sessionId, kind })
    .buffer(true)
    .parse(rawBody);

/** Downloads an export, checks it is a proper CSV attachment, and parses it back. */
const download = async (sessionId: string, kind: DataExportTable) => {
  const res = await exportOf(sessionId, kind).expect(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(
    new RegExp(`^attachment; filename="[a-z0-9-]+-${kind}\\.csv"$`),
  );
  const text = (res.body as Buffer).toString('utf8');
  // UTF-8 without a byte order mark: the header is the first byte.
  expect(text.split('\r\n')[0]).toBe(STUDY_EXPORT_COLUMNS[kind].join(','));
  const rows = parse<Record<string, string>>(text, { columns: true });
  return { text, rows, disposition: res.headers['content-disposition'] as string };
};

/** Every e-mail and name the harness knows is absent: people are participant_ids. */
const expectNoEmails = (text: string) => {
  for (const user of Object.values(h.users)) expect(text).not.toContain(user.email);
};

const TRICKY = [
  'plain',
  'comma, inside',
  'she said "hi"',
  'line one\nline two',
  'windows\r\nline',
  '=cmd|"/c calc"!A1',
  '+1',
  '-2',
  '@x',
  'héllo 😀 日本語',
];
/** What a spreadsheet gets: formula-looking cells carry a leading quote. */
const neutralised = (cell: string) => (/^[=+\-@\t\r\n|;]/.test(cell) ? `'${cell}` : cell);

describe('export of messages', () => {
  it('every message with its author’s participant_id (no e-mail), quoted and neutralised, in order', async () => {
    const sessionId = await h.session({ scope: null });
    // Names come from the access token: a comma and quotes, a formula, and a leading tab.
    const quoted = h.person('participant', { name: 'Doe, "Jane"' });
    const formula = h.person('participant', { name: '=HYPERLINK("http://evil.test")' });
    const tabbed = h.person('participant', { name: '\tTabby' });
    const writers = [quoted, formula, tabbed];
    const sent: { id: string; name: string; email: string; message: string }[] = [];
    for (const [i, message] of TRICKY.entries()) {
      const writer = writers[i % writers.length]!;
      const res = await h
        .http()
        .post('/addMessage')
        .set(writer.headers)
        .send({ sessionId, message })
        .expect(200);
      sent.push({
        id: res.body.res.message.message_id,
        name: writer.user.name,
        email: writer.user.email,
        message,
      });
    }
    // One appended by realtime, whose payload carries no e-mail.
    const live = await h.appendMessage(sessionId, { message: '@everyone hello' }, 'participant');

    const { text, rows } = await download(sessionId, 'messages');
    expect(rows).toEqual([
      ...sent.map((m, i) => ({
        session_id: sessionId,
        message_id: m.id,
        seq: String(i + 1),
        participant_id: expect.stringMatching(PARTICIPANT_ID),
        sent_at: expect.stringMatching(ISO),
        video_time_ms: '',
        message: neutralised(m.message),
        action_id: '',
        edited: 'false',
        original_text: '',
      })),
      {
        session_id: sessionId,
        message_id: live.message_id,
        seq: String(sent.length + 1),
        participant_id: expect.stringMatching(PARTICIPANT_ID),
        sent_at: live.time,
        video_time_ms: '',
        message: "'@everyone hello",
        action_id: '',
        edited: 'false',
        original_text: '',
      },
    ]);
    // One id per person: the same writer's messages share it, different writers differ.
    const idOf = new Map<string, string>();
    for (const [i, m] of sent.entries()) {
      const known = idOf.get(m.email);
      if (known) expect(rows[i]!.participant_id).toBe(known);
      else idOf.set(m.email, rows[i]!.participant_id!);
    }
    expect(new Set(idOf.values()).size).toBe(writers.length);
    expectNoEmails(text);
    // The raw text: quoting where needed (RFC 4180), a leading ' on every cell that could run.
    expect(text).toContain('"comma, inside"');
    expect(text).toContain('"she said ""hi"""');
    expect(text).toContain('"line one\nline two"');
    expect(text).toContain(`"'=cmd|""/c calc""!A1"`);
    // (Then action_id, empty for typed messages, edited and original_text.)
    expect(text).toContain(`,'+1,,false,\r\n`);
    expect(text).toContain(`,'-2,,false,\r\n`);
    expect(text).toContain(',héllo 😀 日本語,,false,\r\n');
  });

  it('marks an edited message and keeps the text as written, through later edits', async () => {
    const sessionId = await h.session();
    const message = await h.appendMessage(sessionId, { message: 'as written', videoTime: 12.3456 });
    const untouched = await h.appendMessage(sessionId, { message: 'left alone' });
    for (const text of ['first edit', 'second edit']) {
      await h
        .http()
        .post('/editMessage')
        .set(h.as('owner').headers)
        .send({ messageId: message.message_id, message: text })
        .expect(200);
    }
    const { rows } = await download(sessionId, 'messages');
    expect(rows.map((r) => [r.message_id, r.message, r.edited, r.original_text, r.video_time_ms])).toEqual([
      [message.message_id, 'second edit', 'true', 'as written', '12346'],
      [untouched.message_id, 'left alone', 'false', '', ''],
    ]);
  });

  it('is named after the session’s title', async () => {
    const sessionId = await h.session();
    await h
      .studiesHttp()
      .post('/editSessionInfo')
      .set(h.as('owner').headers)
      .send({ sessionId, title: 'Pilot: Café study #2' })
      .expect(200);
    const { disposition } = await download(sessionId, 'messages');
    expect(disposition).toBe('attachment; filename="pilot-cafe-study-2-messages.csv"');
  });

  it('an empty session exports the header row only', async () => {
    const { text, rows } = await download(await h.session(), 'messages');
    expect(text).toBe(
      'session_id,message_id,seq,participant_id,sent_at,video_time_ms,message,action_id,edited,original_text\r\n',
    );
    expect(rows).toEqual([]);
  });

  it.each([6, 7])('%i messages, across pages of three, come out once each and in order', async (count) => {
    const sessionId = await h.session();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const appended = await h.appendMessage(
        sessionId,
        { message: `m${i}` },
        { ...h.author('owner'), name: 'N' },
      );
      ids.push(appended.message_id);
    }
    const { rows } = await download(sessionId, 'messages');
    expect(rows.map((r) => r.message_id)).toEqual(ids);
    expect(rows.map((r) => r.message)).toEqual(ids.map((_, i) => `m${i}`));
  });
});

describe('export of pixels', () => {
  it('every click with its numbers, video time in milliseconds and author’s participant_id', async () => {
    const sessionId = await h.session();
    const rest = await h
      .http()
      .post('/addPixel')
      .set(h.as('owner').headers)
      .send({ sessionId, color: 'rgba(1, 2, 3, 0.5)', x: 0.125, y: 1, videoTime: 3.5 })
      .expect(200);
    const live = [];
    for (const [i, extra] of [
      { color: 'n/a' },
      { color: '#abc', videoTime: 0 },
      { color: '#abcdef', x: 0 },
    ].entries()) {
      const res = await h
        .internal(internalRoutes.recordsAppendPixel, {
          sessionId,
          userId: h.users.participant.id,
          email: h.users.participant.email,
          name: i === 0 ? '-minus, "quoted"' : h.users.participant.name,
          x: 0.5,
          y: 0.25,
          ...extra,
        })
        .expect(200);
      live.push(res.body.res.pixel);
    }

    const { text, rows } = await download(sessionId, 'pixels');
    expect(rows).toEqual([
      {
        session_id: sessionId,
        pixel_id: rest.body.res.pixel.pixel_id,
        participant_id: expect.stringMatching(PARTICIPANT_ID),
        clicked_at: rest.body.res.pixel.time,
        video_time_ms: '3500',
        x: '0.125',
        y: '1',
        color: 'rgba(1, 2, 3, 0.5)',
      },
      {
        session_id: sessionId,
        pixel_id: live[0].pixel_id,
        participant_id: expect.stringMatching(PARTICIPANT_ID),
        clicked_at: live[0].time,
        video_time_ms: '',
        x: '0.5',
        y: '0.25',
        color: 'n/a',
      },
      expect.objectContaining({ pixel_id: live[1].pixel_id, color: '#abc', video_time_ms: '0' }),
      expect.objectContaining({ pixel_id: live[2].pixel_id, color: '#abcdef', x: '0', video_time_ms: '' }),
    ]);
    expect(rows[0]!.participant_id).not.toBe(rows[1]!.participant_id);
    expect(rows[1]!.participant_id).toBe(rows[2]!.participant_id);
    expectNoEmails(text);
    expect(text).not.toContain('minus');
  });

  it('only the session’s own clicks', async () => {
    const sessionId = await h.session();
    const other = await h.session();
    await h
      .http()
      .post('/addPixel')
      .set(h.as('owner').headers)
      .send({ sessionId: other, color: '#000', x: 0, y: 0 })
      .expect(200);
    const { rows } = await download(sessionId, 'pixels');
    expect(rows).toEqual([]);
  });
});

describe('export of prompts', () => {
  it('asks content for the prompts and writes their time and duration in milliseconds', async () => {
    const sessionId = await h.session();
    const prompts = [
      { prompt_id: randomUUID(), time: 0, duration: 0, prompt: '' },
      { prompt_id: randomUUID(), time: 65, duration: 2.5, prompt: 'What do you see, "exactly"?\nTell us.' },
      { prompt_id: randomUUID(), time: 3723, duration: 10, prompt: '=SUM(A1:A9)' },
      { prompt_id: randomUUID(), time: 360000, duration: 0, prompt: 'ünïcødé, 🎬' },
    ];
    h.setPrompts(sessionId, prompts);
    const { rows } = await download(sessionId, 'prompts');
    expect(rows).toEqual([
      {
        session_id: sessionId,
        prompt_id: prompts[0]!.prompt_id,
        video_time_ms: '0',
        duration_ms: '0',
        prompt: '',
      },
      {
        session_id: sessionId,
        prompt_id: prompts[1]!.prompt_id,
        video_time_ms: '65000',
        duration_ms: '2500',
        prompt: prompts[1]!.prompt,
      },
      {
        session_id: sessionId,
        prompt_id: prompts[2]!.prompt_id,
        video_time_ms: '3723000',
        duration_ms: '10000',
        prompt: "'=SUM(A1:A9)",
      },
      {
        session_id: sessionId,
        prompt_id: prompts[3]!.prompt_id,
        video_time_ms: '360000000',
        duration_ms: '0',
        prompt: 'ünïcødé, 🎬',
      },
    ]);
  });

  it('answers 503 (JSON, not a broken file) when content cannot answer', async () => {
    const sessionId = await h.session();
    h.content.failures = 1;
    const res = await h
      .http()
      .get('/exportRecords')
      .set(h.as('owner').headers)
      .query({ sessionId, kind: 'prompts' })
      .expect(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.status).toBe('ERROR');
    expect(res.body.res.message).toMatch(/content/);
  });
});

describe('export: who may do it', () => {
  const expected: Record<Caller, number> = {
    owner: 200,
    participant: 403,
    outsider: 403,
    otherResearcher: 403,
    anonymous: 401,
  };
  for (const kind of RECORD_KINDS) {
    for (const caller of Object.keys(expected) as Caller[]) {
      it(`${kind} by ${caller}: ${expected[caller]}`, async () => {
        const sessionId = await h.session({ scope: null });
        await h
          .http()
          .post('/addMessage')
          .set(h.as('participant').headers)
          .send({ sessionId, message: 'secret' })
          .expect(200);
        const res = await exportOf(sessionId, kind, caller).expect(expected[caller]);
        if (expected[caller] !== 200) {
          const body = JSON.parse((res.body as Buffer).toString('utf8'));
          expect(body.status).toBe('ERROR');
          expect(res.headers['content-disposition']).toBeUndefined();
        }
      });
    }
  }

  it('an unknown session is 404', async () => {
    const res = await h
      .http()
      .get('/exportRecords')
      .set(h.as('owner').headers)
      .query({ sessionId: randomUUID(), kind: 'messages' })
      .expect(404);
    expect(res.body.res.message).toBe('No such session.');
  });
});

describe('export: bad input is a 400 that says what is wrong', () => {
  it.each([
    ['no kind', { sessionId: randomUUID() }, `kind: must be one of ${DATA_EXPORT_TABLES.join(', ')}`],
    [
      'the identifiers, which only the study export holds',
      { sessionId: randomUUID(), kind: 'identifiers' },
      `kind: must be one of ${DATA_EXPORT_TABLES.join(', ')}`,
    ],
    ['no session', { kind: 'messages' }, 'This field must not be empty'],
    ['a bad session id', { sessionId: '../etc', kind: 'messages' }, 'sessionId: is not a valid id'],
  ])('%s', async (_label, query, message) => {
    const res = await h.http().get('/exportRecords').set(h.as('owner').headers).query(query).expect(400);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message, code: 'VALIDATION', issues: expect.any(Array) },
    });
  });
});
