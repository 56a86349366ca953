import {
  EXPORT_CODEBOOK_FILE,
  EXPORT_TABLES,
  STUDY_EXPORT_TABLES,
  internalRoutes,
  studyExportFileName,
} from '@uis/proto';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawBody, startRecords, type RecordsHarness } from './support/records-harness';
import { unzip } from './support/unzip';

/**
 * The export as an analyst reads it: every CSV of a study export with every table filled, read by
 * pandas (python3-pandas, which CI installs), each column's type checked against codebook.csv. A
 * machine without pandas fails here, saying so: this test never skips.
 */
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('export_analysis', { EXPORT_PAGE_ROWS: '2' });
});
afterAll(() => h.close());

/** The first Python that has pandas (pyenv's python3 may lack the Debian package's). */
function pythonWithPandas(): string {
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => !!p);
  for (const python of candidates) {
    if (spawnSync(python, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0) return python;
  }
  throw new Error(
    `pandas is missing: none of ${candidates.join(', ')} can import it. Install python3-pandas (apt-get install -y python3-pandas; .ci/run installs it) or set PYTHON to a python3 that has pandas.`,
  );
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const studies = (path: string, headers: Record<string, string>, body: object) =>
  h.studiesHttp().post(path).set(headers).send(body).expect(200);

/** A session with a row in every table: the setting, roster, consent, records, changes and a withdrawal. */
async function filledSession(): Promise<string> {
  const owner = h.as('owner').headers;
  const sessionId = await h.session({ scope: null });
  await studies('/editSessionInfo', owner, { sessionId, title: 'Pilot', track: 'arm-b' });
  const consent = 'I agree to be recorded.';
  await studies('/setSessionConsent', owner, { sessionId, text: consent });
  const { joinLink } = (await studies('/createJoinLink', owner, { sessionId })).body.res as {
    joinLink: { token: string };
  };
  await studies('/joinSession', h.as('participant').headers, {
    token: joinLink.token,
    panelIds: { PROLIFIC_PID: '5f1e', STUDY_ID: 's1' },
  });
  for (const who of ['participant', 'outsider'] as const)
    await studies('/acceptConsent', h.as(who).headers, { sessionId, sha256: sha256(consent) });

  const actionId = randomUUID();
  h.content.actions.set(sessionId, [
    { action_id: actionId, name: 'Clap', color: '#ff0000', icon: 'celebration', type: 'filled' },
  ]);
  h.setPrompts(sessionId, [{ prompt_id: randomUUID(), time: 12, duration: 1.5, prompt: 'Why?' }]);
  const typed = await h.appendMessage(sessionId, { message: '42', videoTime: 1.25 });
  await h.appendMessage(sessionId, { message: 'Pat reacted with Clap', actionId });
  await h.appendMessage(sessionId, { message: 'bye' }, 'outsider');
  await h.appendPixel(sessionId, { x: 0.25, y: 0.75, color: '#fff', videoTime: 2 });
  await h.appendPixel(sessionId, { x: 0.5, y: 1, color: 'n/a' });
  await h.appendPlayback(sessionId, { event: 'play', videoTime: 0, playbackRate: 1.5 });
  // Exposure: a join of realtime's own (no client time, no video yet) and a mute the browser reported.
  const exposure = (kind: 'join' | 'mute', videoTime: number | null, clientTime: number | null) => ({
    sessionId,
    ...h.author('participant'),
    eventId: randomUUID(),
    kind,
    videoTime,
    clientTime,
  });
  await h
    .internal(internalRoutes.recordsAppendExposure, {
      items: [exposure('join', null, null), exposure('mute', 3.5, Date.now())],
    })
    .expect(200);
  await h
    .http()
    .post('/editMessage')
    .set(owner)
    .send({ messageId: typed.message_id, message: '43' })
    .expect(200);
  await h
    .http()
    .post('/saveDeviceCheck')
    .set(h.as('participant').headers)
    .send({
      sessionId,
      browserName: 'Firefox',
      browserVersion: '133.0',
      ...{ camera: 'pass', microphone: 'pass', speakers: 'fail', stun: 'pass', turn: 'pass', rtt: 'pass' },
      rttMs: 20,
    })
    .expect(200);
  await studies('/withdrawFromSession', h.as('outsider').headers, { sessionId });
  return sessionId;
}

describe('the study export in pandas', () => {
  it('reads every file into the types its codebook gives', async () => {
    const python = pythonWithPandas();
    const sessionId = await filledSession();
    const res = await h
      .http()
      .get('/exportStudy')
      .set(h.as('owner').headers)
      .query({ sessionId, identifiers: 'true' })
      .buffer(true)
      .parse(rawBody)
      .expect(200);
    const folder = mkdtempSync(join(tmpdir(), 'uis-export-'));
    try {
      for (const file of await unzip(res.body as Buffer)) writeFileSync(join(folder, file.name), file.bytes);
      const script = join(__dirname, 'support', 'read-export.py');
      let output: string;
      try {
        output = execFileSync(python, [script, folder], { encoding: 'utf8' });
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string };
        throw new Error(
          `pandas could not read the export as its codebook says:\n${failed.stdout}${failed.stderr}`,
        );
      }
      const read = JSON.parse(output) as Record<string, { rows: number; dtypes: Record<string, string> }>;
      // Every table, the codebook included, was read, and every table has rows (so every type was checked).
      const files = [...STUDY_EXPORT_TABLES.map(studyExportFileName), EXPORT_CODEBOOK_FILE];
      expect(Object.keys(read).sort()).toEqual([...files].sort());
      for (const file of files) expect([file, read[file]!.rows > 0]).toEqual([file, true]);
      // The codebook's types, as pandas holds them.
      const expected = {
        text: 'string',
        integer: 'Int64',
        number: 'float64',
        boolean: 'boolean',
        timestamp: 'datetime64[ns, UTC]',
      };
      for (const table of STUDY_EXPORT_TABLES) {
        for (const column of EXPORT_TABLES[table].columns) {
          expect([table, column.name, read[studyExportFileName(table)]!.dtypes[column.name]]).toEqual([
            table,
            column.name,
            expected[column.type],
          ]);
        }
      }
      expect(read['identifiers.csv']!.dtypes).toMatchObject({
        panel_PROLIFIC_PID: 'string',
        panel_STUDY_ID: 'string',
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
