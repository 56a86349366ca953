import {
  STUDY_EXPORT_COLUMNS,
  STUDY_EXPORT_CONSENT_TEXTS,
  STUDY_EXPORT_FORMAT,
  STUDY_EXPORT_MANIFEST,
  STUDY_EXPORT_TABLES,
  STUDY_EXPORT_TEXTS,
  StudyExportManifest,
  studyExportFileName,
  type StudyExportTable,
} from '@uis/proto';
import { parse } from 'csv-parse/sync';
import { createHash, randomUUID } from 'node:crypto';
import { unzip } from './support/unzip';
import {
  rawBody,
  startRecords,
  type Caller,
  type MessageFields,
  type CastName,
  type RecordsHarness,
} from './support/records-harness';

// Three rows a page, so every table below crosses page boundaries of the streamed reads.
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('study_export', { EXPORT_PAGE_ROWS: '3' });
});
afterAll(async () => {
  await h.close();
});

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const FILE_NAMES = [
  ...STUDY_EXPORT_TABLES.map(studyExportFileName),
  STUDY_EXPORT_CONSENT_TEXTS,
  STUDY_EXPORT_MANIFEST,
];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const exportStudy = (query: Record<string, string>, caller: Caller = 'owner') =>
  h.http().get('/exportStudy').set(h.as(caller).headers).query(query).buffer(true).parse(rawBody);

type Tables = Record<StudyExportTable, Record<string, string>[]>;

/**
 * Downloads an export and checks what every archive must be: a ZIP attachment of the six CSVs and
 * the manifest last; the manifest's size, SHA-256 and row count of each file are the file's; each
 * CSV starts with the byte order mark and the header of its columns, and parses.
 */
async function download(
  query: Record<string, string>,
): Promise<{ manifest: StudyExportManifest; tables: Tables }> {
  const res = await exportStudy(query).expect(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const what = query.groupId ? `group-${query.groupId}` : `session-${query.sessionId}`;
  expect(res.headers['content-disposition']).toBe(`attachment; filename="study-${what}.zip"`);
  const files = await unzip(res.body as Buffer);
  expect(files.map((file) => file.name)).toEqual(FILE_NAMES);
  const manifest = StudyExportManifest.parse(JSON.parse(files.at(-1)!.bytes.toString('utf8')));
  expect(manifest.files.map((file) => file.name)).toEqual(FILE_NAMES.slice(0, -1));

  const tables = {} as Tables;
  for (const [i, table] of STUDY_EXPORT_TABLES.entries()) {
    const { bytes } = files[i]!;
    const listed = manifest.files[i]!;
    expect(listed).toEqual({
      name: studyExportFileName(table),
      rows: listed.rows,
      bytes: bytes.length,
      sha256: sha256(bytes),
    });
    expect(bytes.subarray(0, 3)).toEqual(BOM);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe(STUDY_EXPORT_COLUMNS[table].join(','));
    tables[table] = parse<Record<string, string>>(text, { columns: true });
    expect(tables[table]).toHaveLength(listed.rows);
  }
  return { manifest, tables };
}

/** Rows in the database, per table, of these sessions. */
async function countsOf(sessionIds: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['messages', 'pixels', 'playback', 'audit_log']) {
    const { rows } = await h.pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE session_id = ANY($1::uuid[])`,
      [sessionIds],
    );
    counts[table] = rows[0]!.n;
  }
  return counts;
}

const addMessage = (sessionId: string, message: string, caller: Caller = 'owner') =>
  h.addMessage(caller, sessionId, message);
const appendMessage = (sessionId: string, extra: MessageFields, by: CastName = 'participant') =>
  h.appendMessage(sessionId, extra, by);
const appendPixel = (sessionId: string, by: CastName = 'participant') =>
  h.appendPixel(sessionId, { x: 0.5, y: 0.25, color: '#abc' }, by);
const appendPlayback = (sessionId: string, videoTime: number) => h.appendPlayback(sessionId, { videoTime });

/** A group of the owner's of its own (the harness's newSession puts every session in one group). */
async function newGroup(sessions: number): Promise<{ groupId: string; sessionIds: string[] }> {
  const group = await h.studiesHttp().post('/createGroup').set(h.as('owner').headers).send({}).expect(200);
  const groupId = group.body.res.group.group_id as string;
  const sessionIds: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const created = await h
      .studiesHttp()
      .post('/createSession')
      .set(h.as('owner').headers)
      .send({ groupId })
      .expect(200);
    sessionIds.push(created.body.res.session.session_id as string);
  }
  return { groupId, sessionIds };
}

describe('study export of a session', () => {
  it('holds every kind of record, the participants and the audit log, with a manifest that vouches for them', async () => {
    const sessionId = await h.session({ scope: null });
    const began = Date.now();
    const formula = await addMessage(sessionId, '=HYPERLINK("http://evil.test")');
    const typed = await addMessage(sessionId, 'hello, "world"', 'participant');
    const actionId = randomUUID();
    const reaction = await appendMessage(sessionId, {
      message: 'Pat reacted with 👍',
      actionId,
      videoTime: 12.5,
    });
    await appendMessage(sessionId, { message: 'line one\nline two' }, 'outsider');
    const ownerClick = (
      await h
        .http()
        .post('/addPixel')
        .set(h.as('owner').headers)
        .send({ sessionId, color: '#000', x: 0.125, y: 1, videoTime: 3.5 })
        .expect(200)
    ).body.res.pixel as { pixel_id: string };
    const kept = await appendPixel(sessionId);
    const deletedClick = await appendPixel(sessionId);
    await appendPlayback(sessionId, 0);
    await appendPlayback(sessionId, 4.5);
    h.setPrompts(sessionId, [
      { prompt_id: randomUUID(), time: 65, duration: 2.5, prompt: '+1 what do you see?' },
      { prompt_id: randomUUID(), time: 3723, duration: 0, prompt: 'Anything else?' },
    ]);
    // The researcher's changes: the audit log's three kinds.
    await h
      .http()
      .post('/editMessage')
      .set(h.as('owner').headers)
      .send({ messageId: typed.message_id, message: 'edited' })
      .expect(200);
    await h
      .http()
      .post('/deleteMessage')
      .set(h.as('owner').headers)
      .send({ messageId: formula.message_id })
      .expect(200);
    await h
      .http()
      .post('/deletePixel')
      .set(h.as('owner').headers)
      .send({ pixelId: deletedClick.pixel_id })
      .expect(200);
    // Another session's records stay out.
    const other = await h.session();
    await addMessage(other, 'elsewhere');
    await appendPixel(other);

    const { manifest, tables } = await download({ sessionId });

    expect(manifest).toEqual({
      format: STUDY_EXPORT_FORMAT,
      exportedAt: expect.any(String),
      exportedBy: { userId: h.users.owner.id, name: h.users.owner.name, email: h.users.owner.email },
      exported: { groupId: null, sessionIds: [sessionId] },
      files: expect.any(Array),
      notes: expect.any(Array),
      problems: [],
    });
    expect(Date.parse(manifest.exportedAt)).toBeGreaterThanOrEqual(began);
    // The counts are the database's.
    const counts = await countsOf([sessionId]);
    expect(counts).toEqual({ messages: 3, pixels: 2, playback: 2, audit_log: 3 });
    const rowsOf = Object.fromEntries(manifest.files.map((file) => [file.name, file.rows]));
    expect(rowsOf).toEqual({
      'messages.csv': counts.messages,
      'pixels.csv': counts.pixels,
      'prompts.csv': 2,
      'playback.csv': counts.playback,
      'participants.csv': 3,
      'audit.csv': counts.audit_log,
      // No consent text, agreement or withdrawal in this session (withdrawal.test.ts has them).
      'consent-texts.csv': 0,
      'consents.csv': 0,
      'withdrawals.csv': 0,
      // No pre-session check either (device-checks.test.ts has them).
      'device-checks.csv': 0,
      'consent-texts.json': 0,
    });

    expect(tables.messages).toEqual([
      {
        message_id: typed.message_id,
        time: expect.any(String),
        videoTime: '',
        name: h.users.participant.name,
        email: h.users.participant.email,
        message: 'edited',
        actionId: '',
        sessionId,
      },
      expect.objectContaining({ message_id: reaction.message_id, videoTime: '12.5', actionId, sessionId }),
      expect.objectContaining({ message: 'line one\nline two', email: h.users.outsider.email, sessionId }),
    ]);
    expect(tables.pixels.map((row) => [row.pixel_id, row.sessionId])).toEqual([
      [ownerClick.pixel_id, sessionId],
      [kept.pixel_id, sessionId],
    ]);
    expect(tables.prompts).toEqual([
      {
        prompt_id: expect.any(String),
        time: '00:01:05',
        duration: '2.5',
        prompt: "'+1 what do you see?",
        sessionId,
      },
      { prompt_id: expect.any(String), time: '01:02:03', duration: '0', prompt: 'Anything else?', sessionId },
    ]);
    expect(tables.playback.map((row) => [row.event, row.videoTime, row.email, row.sessionId])).toEqual([
      ['play', '0', h.users.owner.email, sessionId],
      ['play', '4.5', h.users.owner.email, sessionId],
    ]);

    // One row per person who wrote a record, earliest first, with counts and first and last times.
    const { rows: spans } = await h.pg.query<{ author_user_id: string; first: Date; last: Date }>(
      `SELECT author_user_id, min(created_at) AS first, max(created_at) AS last FROM (
         SELECT author_user_id, created_at FROM messages WHERE session_id = $1
         UNION ALL SELECT author_user_id, created_at FROM pixels WHERE session_id = $1
         UNION ALL SELECT author_user_id, created_at FROM playback WHERE session_id = $1) r
       GROUP BY author_user_id`,
      [sessionId],
    );
    const span = (person: CastName) => {
      const row = spans.find((s) => s.author_user_id === h.users[person].id)!;
      return { firstTime: row.first.toISOString(), lastTime: row.last.toISOString() };
    };
    const person = (who: CastName) => ({
      sessionId,
      userId: h.users[who].id,
      name: h.users[who].name,
      email: h.users[who].email,
    });
    // Nobody was invited or came by link (scope Everyone, nobody opened it): no roster columns.
    const offRoster = { source: '', invitedAt: '', joinedAt: '', panelIds: '', panelIdConflicts: '' };
    expect(tables.participants).toEqual([
      {
        ...person('participant'),
        messages: '1',
        reactions: '1',
        clicks: '1',
        playback: '0',
        ...span('participant'),
        ...offRoster,
      },
      {
        ...person('outsider'),
        messages: '1',
        reactions: '0',
        clicks: '0',
        playback: '0',
        ...span('outsider'),
        ...offRoster,
      },
      // The owner's typed message was deleted: what is left is a click and the playback.
      {
        ...person('owner'),
        messages: '0',
        reactions: '0',
        clicks: '1',
        playback: '2',
        ...span('owner'),
        ...offRoster,
      },
    ]);

    // The audit log: who changed what, before and after, in the order made.
    const researcher = {
      userId: h.users.owner.id,
      email: h.users.owner.email,
      name: h.users.owner.name,
      sessionId,
    };
    expect(tables.audit).toEqual([
      {
        audit_id: expect.any(String),
        time: expect.any(String),
        kind: 'editMessage',
        recordId: typed.message_id,
        ...researcher,
        before: expect.any(String),
        after: expect.any(String),
      },
      expect.objectContaining({
        kind: 'deleteMessage',
        recordId: formula.message_id,
        after: '',
        ...researcher,
      }),
      expect.objectContaining({
        kind: 'deletePixel',
        recordId: deletedClick.pixel_id,
        after: '',
        ...researcher,
      }),
    ]);
    const [edit, deletion, click] = tables.audit.map((row) => ({
      before: JSON.parse(row.before!) as Record<string, unknown>,
      after: row.after ? (JSON.parse(row.after) as Record<string, unknown>) : null,
    }));
    expect(edit).toEqual({
      before: expect.objectContaining({
        message_id: typed.message_id,
        message: 'hello, "world"',
        email: h.users.participant.email,
      }),
      after: expect.objectContaining({ message_id: typed.message_id, message: 'edited', time: typed.time }),
    });
    // The JSON keeps the text as written; the cell itself starts with '{', nothing to neutralise.
    expect(deletion!.before).toEqual(
      expect.objectContaining({ message_id: formula.message_id, message: '=HYPERLINK("http://evil.test")' }),
    );
    expect(click!.before).toEqual(
      expect.objectContaining({ pixel_id: deletedClick.pixel_id, x: 0.5, y: 0.25, color: '#abc', sessionId }),
    );
  });

  it('an empty session is header rows only and a manifest of zero rows', async () => {
    const sessionId = await h.session({ scope: null });
    const { manifest, tables } = await download({ sessionId });
    expect(manifest.files.map((file) => file.rows)).toEqual([...STUDY_EXPORT_TABLES.map(() => 0), 0]);
    for (const table of STUDY_EXPORT_TABLES) expect(tables[table]).toEqual([]);
  });

  it("lists studies' roster in participants.csv: who came by join link with their panel ids, and who was invited but wrote nothing", async () => {
    const sessionId = await h.session({ scope: ['invited-only@uni.test'] });
    const { joinLink } = (
      await h.studiesHttp().post('/createJoinLink').set(h.as('owner').headers).send({ sessionId }).expect(200)
    ).body.res as { joinLink: { token: string } };
    const panelIds = { PROLIFIC_PID: 'abc123', STUDY_ID: 's1', SESSION_ID: 'x9' };
    await h
      .studiesHttp()
      .post('/joinSession')
      .set(h.as('participant').headers)
      .send({ token: joinLink.token, panelIds })
      .expect(200);
    await appendMessage(sessionId, { message: 'here' }, 'participant');

    const { tables } = await download({ sessionId });
    expect(tables.participants).toEqual([
      expect.objectContaining({
        userId: h.users.participant.id,
        email: h.users.participant.email,
        messages: '1',
        source: 'link',
        joinedAt: expect.stringMatching(/^\d{4}-/),
      }),
      expect.objectContaining({
        userId: '',
        name: '',
        email: 'invited-only@uni.test',
        messages: '0',
        firstTime: '',
        source: 'scope',
        joinedAt: '',
        panelIds: '',
      }),
    ]);
    // The ids as JSON (in Postgres's order of keys).
    expect(JSON.parse(tables.participants[0]!.panelIds!)).toEqual(panelIds);
  });

  it('exports everything when a roster entry is past its contract, and says so in the manifest', async () => {
    const sessionId = await h.session({ scope: null });
    await appendMessage(sessionId, { message: 'still here' }, 'participant');
    // A row as a merge of joins left it before the fix: 12 panel ids, past the roster's contract.
    const panelIds = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`ID${i}`, 'x']));
    await h.pg.query(
      `INSERT INTO studies.session_participants (session_id, email, user_id, source, joined_at, panel_ids)
       VALUES ($1, $2, $3, 'link', now(), $4)`,
      [sessionId, h.users.participant.email, h.users.participant.id, JSON.stringify(panelIds)],
    );
    const { manifest, tables } = await download({ sessionId });
    expect(tables.messages.map((row) => row.message)).toEqual(['still here']);
    expect(tables.participants).toEqual([
      expect.objectContaining({ userId: h.users.participant.id, messages: '1', source: '', panelIds: '' }),
    ]);
    expect(manifest.problems).toEqual([
      { file: 'participants.csv', sessionId, message: expect.stringMatching(/roster .* could not be read/) },
    ]);
  });

  it('holds every consent text exactly, beside the CSV that neutralises formulas, and says which is which', async () => {
    const sessionId = await h.session({ scope: null });
    const text = '-1 means you disagree; =SUM(A1) is text.';
    const set = await h
      .studiesHttp()
      .post('/setSessionConsent')
      .set(h.as('owner').headers)
      .send({ sessionId, text })
      .expect(200);
    const res = await exportStudy({ sessionId }).expect(200);
    const files = await unzip(res.body as Buffer);
    const exact = JSON.parse(
      files.find((file) => file.name === STUDY_EXPORT_CONSENT_TEXTS)!.bytes.toString('utf8'),
    );
    expect(exact).toEqual([expect.objectContaining({ sessionId, version: 1, text })]);
    const sha = set.body.res.consent.sha256 as string;
    expect(createHash('sha256').update(exact[0].text, 'utf8').digest('hex')).toBe(sha);
    const manifest = StudyExportManifest.parse(JSON.parse(files.at(-1)!.bytes.toString('utf8')));
    expect(manifest.notes.join(' ')).toContain(STUDY_EXPORT_CONSENT_TEXTS);
  });

  it('crosses many pages of each kind in order', async () => {
    const sessionId = await h.session();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await appendMessage(sessionId, { message: `m${i}` })).message_id);
    const { tables } = await download({ sessionId });
    expect(tables.messages.map((row) => row.message_id)).toEqual(ids);
  });
});

describe('study export of a group', () => {
  it("holds every session of the group (oldest first) and no other group's", async () => {
    const { groupId, sessionIds } = await newGroup(3);
    const [a, b] = sessionIds as [string, string, string];
    for (let i = 0; i < 4; i++) await addMessage(a, `a${i}`);
    await appendMessage(b, { message: 'b0' });
    await appendPixel(b);
    await appendPlayback(b, 1);
    h.setPrompts(b, [{ prompt_id: randomUUID(), time: 1, duration: 1, prompt: 'b prompt' }]);
    const deleted = await addMessage(b, 'to delete');
    await h
      .http()
      .post('/deleteMessage')
      .set(h.as('owner').headers)
      .send({ messageId: deleted.message_id })
      .expect(200);
    const outside = await h.session();
    await addMessage(outside, 'not in the group');

    const { manifest, tables } = await download({ groupId });
    expect(manifest.exported).toEqual({ groupId, sessionIds });
    const counts = await countsOf(sessionIds);
    expect(manifest.files.map((file) => file.rows)).toEqual([
      counts.messages,
      counts.pixels,
      1,
      counts.playback,
      3,
      counts.audit_log,
      0,
      0,
      0,
      // device-checks.csv, consent-texts.json
      0,
      0,
    ]);
    expect(tables.messages.map((row) => [row.message, row.sessionId])).toEqual([
      ['a0', a],
      ['a1', a],
      ['a2', a],
      ['a3', a],
      ['b0', b],
    ]);
    expect(tables.pixels.map((row) => row.sessionId)).toEqual([b]);
    expect(tables.prompts.map((row) => [row.prompt, row.sessionId])).toEqual([['b prompt', b]]);
    expect(tables.playback.map((row) => row.sessionId)).toEqual([b]);
    expect(tables.participants.map((row) => [row.sessionId, row.userId])).toEqual([
      [a, h.users.owner.id],
      [b, h.users.participant.id],
      [b, h.users.owner.id],
    ]);
    expect(tables.audit.map((row) => [row.kind, row.recordId, row.sessionId])).toEqual([
      ['deleteMessage', deleted.message_id, b],
    ]);
  });

  it('an empty group is an archive of header rows', async () => {
    const { groupId } = await newGroup(0);
    const { manifest } = await download({ groupId });
    expect(manifest.exported).toEqual({ groupId, sessionIds: [] });
    expect(manifest.files.map((file) => file.rows)).toEqual([...STUDY_EXPORT_TABLES.map(() => 0), 0]);
  });
});

describe('study export: refusals come before the first byte, as JSON', () => {
  /** A refusal: the JSON error envelope, no attachment, not a byte of a ZIP. */
  const refused = async (query: Record<string, string>, caller: Caller, status: number) => {
    const res = await exportStudy(query, caller).expect(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    const body = JSON.parse((res.body as Buffer).toString('utf8')) as {
      status: string;
      res: { message: string };
    };
    expect(body.status).toBe('ERROR');
    return body.res.message;
  };

  it.each([
    ['participant', 403],
    ['outsider', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('a session by %s: %i', async (caller, status) => {
    const sessionId = await h.session({ scope: null });
    await addMessage(sessionId, 'secret', 'participant');
    await refused({ sessionId }, caller, status);
  });

  it.each([
    ['participant', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('a group by %s: %i', async (caller, status) => {
    const { groupId, sessionIds } = await newGroup(1);
    await addMessage(sessionIds[0]!, 'secret');
    const message = await refused({ groupId }, caller, status);
    if (caller === 'otherResearcher') expect(message).toBe('This group belongs to another researcher.');
  });

  it('an unknown session or group is a 404', async () => {
    expect(await refused({ sessionId: randomUUID() }, 'owner', 404)).toBe('No such session.');
    expect(await refused({ groupId: randomUUID() }, 'owner', 404)).toBe('No such group.');
  });

  it('a session whose prompts content cannot list is a 503', async () => {
    const sessionId = await h.session();
    h.content.failures = 1;
    expect(await refused({ sessionId }, 'owner', 503)).toMatch(/content/);
  });

  it.each([
    ['neither id', {}, STUDY_EXPORT_TEXTS.neither],
    ['both ids', { sessionId: randomUUID(), groupId: randomUUID() }, STUDY_EXPORT_TEXTS.both],
    ['a bad session id', { sessionId: '../etc' }, 'sessionId: is not a valid id'],
    ['a bad group id', { groupId: 'x' }, 'groupId: is not a valid id'],
  ])('bad input, %s, is a 400 that says what is wrong', async (_label, query, message) => {
    const res = await exportStudy(query).expect(400);
    expect(JSON.parse((res.body as Buffer).toString('utf8'))).toEqual({
      status: 'ERROR',
      res: { message, code: 'VALIDATION', issues: expect.any(Array) },
    });
  });
});

describe('study export: a failure while streaming', () => {
  it('breaks the download off: never an archive that looks complete', async () => {
    const sessionId = await h.session();
    for (let i = 0; i < 5; i++) await addMessage(sessionId, `m${i}`);
    // audit.csv is read last, after the first files were sent: its table is gone meanwhile.
    await h.pg.query('ALTER TABLE audit_log RENAME TO audit_log_away');
    try {
      // fetch, not supertest: the answer starts as a 200 and its body then fails.
      const url = `${(await h.app.getUrl()).replace('[::1]', '127.0.0.1')}/exportStudy?sessionId=${sessionId}`;
      const res = await fetch(url, { headers: h.as('owner').headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      await expect(res.arrayBuffer()).rejects.toThrow();
    } finally {
      await h.pg.query('ALTER TABLE audit_log_away RENAME TO audit_log');
    }
    // The service is fine afterwards.
    const { manifest } = await download({ sessionId });
    expect(manifest.files[0]!.rows).toBe(5);
  });
});
