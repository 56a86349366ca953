import {
  DATA_EXPORT_TABLES,
  EXPORT_CODEBOOK_FILE,
  EXPORT_CODEBOOK_MARKDOWN,
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

/** The files of an archive, in order: without identifiers unless asked. */
const fileNames = (identifiers: boolean) => [
  ...(identifiers ? STUDY_EXPORT_TABLES : DATA_EXPORT_TABLES).map(studyExportFileName),
  EXPORT_CODEBOOK_FILE,
  EXPORT_CODEBOOK_MARKDOWN,
  STUDY_EXPORT_CONSENT_TEXTS,
  STUDY_EXPORT_MANIFEST,
];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PARTICIPANT_ID = /^P-[0-9a-f]{12}$/;

const exportStudy = (query: Record<string, string>, caller: Caller = 'owner') =>
  h.http().get('/exportStudy').set(h.as(caller).headers).query(query).buffer(true).parse(rawBody);

type Tables = Partial<Record<StudyExportTable, Record<string, string>[]>> &
  Record<Exclude<StudyExportTable, 'identifiers'>, Record<string, string>[]>;

/**
 * Downloads an export and checks what every archive must be: a ZIP attachment of the CSVs, the
 * codebook, the consent texts and the manifest last; the manifest's size, SHA-256 and row count of
 * each file are the file's; each CSV starts (no byte order mark) with the header its codebook rows
 * list, and parses; no e-mail is anywhere unless identifiers were asked for.
 */
async function download(
  query: Record<string, string>,
): Promise<{ manifest: StudyExportManifest; tables: Tables; files: { name: string; bytes: Buffer }[] }> {
  const identifiers = query.identifiers === 'true';
  const res = await exportStudy(query).expect(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const what = query.groupId ? `group-${query.groupId}` : `session-${query.sessionId}`;
  expect(res.headers['content-disposition']).toBe(`attachment; filename="study-${what}.zip"`);
  const files = await unzip(res.body as Buffer);
  expect(files.map((file) => file.name)).toEqual(fileNames(identifiers));
  const manifest = StudyExportManifest.parse(JSON.parse(files.at(-1)!.bytes.toString('utf8')));
  expect(manifest.files.map((file) => file.name)).toEqual(fileNames(identifiers).slice(0, -1));

  const parsed = new Map<string, Record<string, string>[]>();
  for (const [i, { name, bytes }] of files.slice(0, -1).entries()) {
    const listed = manifest.files[i]!;
    expect(listed).toEqual({ name, rows: listed.rows, bytes: bytes.length, sha256: sha256(bytes) });
    if (!name.endsWith('.csv')) continue;
    expect(bytes[0]).not.toBe(0xef);
    const text = bytes.toString('utf8');
    parsed.set(name, parse<Record<string, string>>(text, { columns: true }));
    expect(parsed.get(name)).toHaveLength(listed.rows);
    if (!identifiers) for (const user of Object.values(h.users)) expect(text).not.toContain(user.email);
  }
  // The codebook lists every CSV's columns, in order.
  const codebook = parsed.get(EXPORT_CODEBOOK_FILE)!;
  for (const [name, rows] of parsed) {
    const header = files
      .find((file) => file.name === name)!
      .bytes.toString('utf8')
      .split('\r\n')[0]!;
    expect(codebook.filter((row) => row.file === name).map((row) => row.column)).toEqual(header.split(','));
    if (rows.length > 0) expect(Object.keys(rows[0]!)).toEqual(header.split(','));
  }
  const tables = {} as Tables;
  for (const table of identifiers ? STUDY_EXPORT_TABLES : DATA_EXPORT_TABLES) {
    const name = studyExportFileName(table);
    if (table !== 'identifiers') {
      const header = files
        .find((file) => file.name === name)!
        .bytes.toString('utf8')
        .split('\r\n')[0];
      expect(header).toBe(STUDY_EXPORT_COLUMNS[table].join(','));
    }
    tables[table] = parsed.get(name)!;
  }
  return { manifest, tables, files };
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
  it('holds the session, its actions, every kind of record, the participants and the audit log, with a manifest that vouches for them', async () => {
    const sessionId = await h.session({ scope: null });
    await h
      .studiesHttp()
      .post('/editSessionInfo')
      .set(h.as('owner').headers)
      .send({
        sessionId,
        title: 'Pilot A',
        track: 'condition-1',
        completionUrl: 'https://panel.test/done?cc=AB1',
      })
      .expect(200);
    h.content.videos.set(sessionId, 'clip.mp4');
    const began = Date.now();
    const formula = await addMessage(sessionId, '=HYPERLINK("http://evil.test")');
    const typed = await addMessage(sessionId, 'hello, "world"', 'participant');
    const actionId = randomUUID();
    h.content.actions.set(sessionId, [
      { action_id: actionId, name: 'Like', color: '#00ff00', icon: 'thumb_up', type: 'round' },
    ]);
    const reaction = await appendMessage(sessionId, {
      message: 'Pat reacted with Like',
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
      exported: { groupId: null, sessionIds: [sessionId], identifiers: false },
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
      'sessions.csv': 1,
      'actions.csv': 1,
      'participants.csv': 3,
      'messages.csv': counts.messages,
      'pixels.csv': counts.pixels,
      'prompts.csv': 2,
      'playback.csv': counts.playback,
      'audit.csv': counts.audit_log,
      // No consent text, agreement or withdrawal in this session (withdrawal.test.ts has them).
      'consent-texts.csv': 0,
      'consents.csv': 0,
      'withdrawals.csv': 0,
      // No pre-session check either (device-checks.test.ts has them), nor exposure (export-analysis.test.ts).
      'device-checks.csv': 0,
      'exposure.csv': 0,
      'codebook.csv': expect.any(Number),
      'codebook.md': 0,
      'consent-texts.json': 0,
    });

    expect(tables.sessions).toEqual([
      {
        session_id: sessionId,
        group_id: expect.any(String),
        group_title: expect.any(String),
        title: 'Pilot A',
        type: expect.stringMatching(/^(video|stream|chat)$/),
        source: '',
        video_file: 'clip.mp4',
        track: 'condition-1',
        scope_kind: 'everyone',
        scope_size: '',
        completion_url: 'https://panel.test/done?cc=AB1',
        created_at: expect.stringMatching(ISO),
      },
    ]);
    expect(tables.actions).toEqual([
      {
        session_id: sessionId,
        action_id: actionId,
        name: 'Like',
        icon: 'thumb_up',
        icon_style: 'round',
        color: '#00ff00',
      },
    ]);

    const [participantId, outsiderId, ownerId] = [
      tables.messages[0]!.participant_id!,
      tables.messages[2]!.participant_id!,
      tables.playback[0]!.participant_id!,
    ];
    for (const id of [participantId, outsiderId, ownerId]) expect(id).toMatch(PARTICIPANT_ID);
    expect(new Set([participantId, outsiderId, ownerId]).size).toBe(3);

    expect(tables.messages).toEqual([
      {
        session_id: sessionId,
        message_id: typed.message_id,
        seq: '2',
        participant_id: participantId,
        sent_at: typed.time,
        video_time_ms: '',
        message: 'edited',
        action_id: '',
        edited: 'true',
        original_text: 'hello, "world"',
      },
      expect.objectContaining({
        message_id: reaction.message_id,
        participant_id: participantId,
        video_time_ms: '12500',
        action_id: actionId,
        edited: 'false',
        original_text: '',
      }),
      expect.objectContaining({ message: 'line one\nline two', participant_id: outsiderId }),
    ]);
    expect(tables.pixels.map((row) => [row.pixel_id, row.participant_id, row.video_time_ms])).toEqual([
      [ownerClick.pixel_id, ownerId, '3500'],
      [kept.pixel_id, participantId, ''],
    ]);
    expect(tables.prompts).toEqual([
      {
        session_id: sessionId,
        prompt_id: expect.any(String),
        video_time_ms: '65000',
        duration_ms: '2500',
        prompt: "'+1 what do you see?",
      },
      {
        session_id: sessionId,
        prompt_id: expect.any(String),
        video_time_ms: '3723000',
        duration_ms: '0',
        prompt: 'Anything else?',
      },
    ]);
    expect(
      tables.playback.map((row) => [
        row.seq,
        row.event,
        row.video_time_ms,
        row.playback_rate,
        row.participant_id,
      ]),
    ).toEqual([
      ['1', 'play', '0', '1', ownerId],
      ['2', 'play', '4500', '1', ownerId],
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
      return { first_record_at: row.first.toISOString(), last_record_at: row.last.toISOString() };
    };
    // Nobody was invited or came by link (scope Everyone, nobody opened it): no roster columns.
    const offRoster = { source: '', invited_at: '', joined_at: '' };
    expect(tables.participants).toEqual([
      {
        session_id: sessionId,
        participant_id: participantId,
        role: 'participant',
        ...offRoster,
        messages: '1',
        reactions: '1',
        clicks: '1',
        playback: '0',
        ...span('participant'),
      },
      {
        session_id: sessionId,
        participant_id: outsiderId,
        role: 'participant',
        ...offRoster,
        messages: '1',
        reactions: '0',
        clicks: '0',
        playback: '0',
        ...span('outsider'),
      },
      // The owner's typed message was deleted: what is left is a click and the playback.
      {
        session_id: sessionId,
        participant_id: ownerId,
        role: 'researcher',
        ...offRoster,
        messages: '0',
        reactions: '0',
        clicks: '1',
        playback: '2',
        ...span('owner'),
      },
    ]);

    // The audit log: who changed what, a message's text before and after, in the order made.
    expect(tables.audit).toEqual([
      {
        session_id: sessionId,
        audit_id: expect.any(String),
        changed_at: expect.stringMatching(ISO),
        kind: 'editMessage',
        record_id: typed.message_id,
        participant_id: ownerId,
        record_participant_id: participantId,
        message_before: 'hello, "world"',
        message_after: 'edited',
      },
      expect.objectContaining({
        kind: 'deleteMessage',
        record_id: formula.message_id,
        record_participant_id: ownerId,
        message_before: `'=HYPERLINK("http://evil.test")`,
        message_after: '',
      }),
      expect.objectContaining({
        kind: 'deletePixel',
        record_id: deletedClick.pixel_id,
        record_participant_id: participantId,
        message_before: '',
        message_after: '',
      }),
    ]);
  });

  it('an empty session is header rows only and a manifest of zero rows', async () => {
    const sessionId = await h.session({ scope: null });
    const { manifest, tables } = await download({ sessionId });
    // The session's own row in sessions.csv, and the codebook; nothing else.
    expect(manifest.files.filter((file) => file.rows > 0).map((file) => file.name)).toEqual([
      'sessions.csv',
      EXPORT_CODEBOOK_FILE,
    ]);
    for (const table of DATA_EXPORT_TABLES) if (table !== 'sessions') expect(tables[table]).toEqual([]);
  });

  it("lists studies' roster in participants.csv, and who they are (with a column per panel id) only in identifiers.csv when asked", async () => {
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

    const plain = await download({ sessionId });
    expect(plain.tables.participants).toEqual([
      expect.objectContaining({
        participant_id: expect.stringMatching(PARTICIPANT_ID),
        role: 'participant',
        messages: '1',
        source: 'link',
        joined_at: expect.stringMatching(ISO),
      }),
      expect.objectContaining({
        participant_id: expect.stringMatching(PARTICIPANT_ID),
        messages: '0',
        first_record_at: '',
        source: 'scope',
        joined_at: '',
      }),
    ]);
    expect(plain.tables.identifiers).toBeUndefined();
    // The scope as its kind and size (the invited address, and the participant the link added), never its e-mails.
    expect(plain.tables.sessions).toEqual([expect.objectContaining({ scope_kind: 'list', scope_size: '2' })]);
    for (const file of plain.files) expect(file.bytes.toString('utf8')).not.toContain('abc123');

    const { manifest, tables } = await download({ sessionId, identifiers: 'true' });
    expect(manifest.exported.identifiers).toBe(true);
    // The same people under the same ids as in the export without identifiers.
    expect(tables.participants).toEqual(
      plain.tables.participants.map((row) => ({ ...row, invited_at: expect.any(String) })),
    );
    expect(tables.identifiers).toEqual([
      {
        session_id: sessionId,
        participant_id: plain.tables.participants[0]!.participant_id,
        user_id: h.users.participant.id,
        email: h.users.participant.email,
        name: h.users.participant.name,
        panel_id_conflicts: '',
        panel_PROLIFIC_PID: 'abc123',
        panel_SESSION_ID: 'x9',
        panel_STUDY_ID: 's1',
      },
      {
        session_id: sessionId,
        participant_id: plain.tables.participants[1]!.participant_id,
        user_id: '',
        email: 'invited-only@uni.test',
        name: '',
        panel_id_conflicts: '',
        panel_PROLIFIC_PID: '',
        panel_SESSION_ID: '',
        panel_STUDY_ID: '',
      },
    ]);
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
    expect(tables.participants).toEqual([expect.objectContaining({ messages: '1', source: '' })]);
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
    expect(manifest.exported).toEqual({ groupId, sessionIds, identifiers: false });
    const counts = await countsOf(sessionIds);
    const rowsOf = Object.fromEntries(manifest.files.map((file) => [file.name, file.rows]));
    expect(rowsOf).toEqual(
      expect.objectContaining({
        'sessions.csv': 3,
        'messages.csv': counts.messages,
        'pixels.csv': counts.pixels,
        'prompts.csv': 1,
        'playback.csv': counts.playback,
        'participants.csv': 3,
        'audit.csv': counts.audit_log,
      }),
    );
    expect(tables.sessions.map((row) => row.session_id)).toEqual(sessionIds);
    expect(tables.messages.map((row) => [row.message, row.session_id])).toEqual([
      ['a0', a],
      ['a1', a],
      ['a2', a],
      ['a3', a],
      ['b0', b],
    ]);
    expect(tables.pixels.map((row) => row.session_id)).toEqual([b]);
    expect(tables.prompts.map((row) => [row.prompt, row.session_id])).toEqual([['b prompt', b]]);
    expect(tables.playback.map((row) => row.session_id)).toEqual([b]);
    // A person has one id across the group's sessions, and the same one in an export of a session alone.
    const ownerId = tables.participants[0]!.participant_id;
    expect(tables.participants.map((row) => [row.session_id, row.participant_id, row.role])).toEqual([
      [a, ownerId, 'researcher'],
      [b, expect.not.stringMatching(ownerId!), 'participant'],
      [b, ownerId, 'researcher'],
    ]);
    const alone = await download({ sessionId: b });
    expect(alone.tables.participants.map((row) => row.participant_id)).toEqual(
      tables.participants.slice(1).map((row) => row.participant_id),
    );
    expect(tables.audit.map((row) => [row.kind, row.record_id, row.session_id])).toEqual([
      ['deleteMessage', deleted.message_id, b],
    ]);
  });

  it('an empty group is an archive of header rows', async () => {
    const { groupId } = await newGroup(0);
    const { manifest } = await download({ groupId });
    expect(manifest.exported).toEqual({ groupId, sessionIds: [], identifiers: false });
    expect(manifest.files.filter((file) => file.rows > 0).map((file) => file.name)).toEqual([
      EXPORT_CODEBOOK_FILE,
    ]);
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
    expect(manifest.files.find((file) => file.name === 'messages.csv')!.rows).toBe(5);
  });
});
