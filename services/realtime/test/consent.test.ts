import { waitFor } from '@uis/kit/testing';
import { CONSENT_TEXTS } from '@uis/proto';
import { createHash } from 'node:crypto';
import { LiveStack, type TestPerson } from './support/live-stack';
import { RecordingConnection } from './support/recording-connection';
import { REALTIME_TEXTS } from '../src/realtime.texts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A participant joins a live session only after agreeing to its current consent text, and
 * a withdrawal ends their live connection. The real services of the composed stack: studies answers
 * the access checks (with consentPending) and tells this realtime when they change.
 */
describe('consent in the live session', () => {
  let stack: LiveStack;
  let researcher: TestPerson;
  const clients: RecordingConnection[] = [];
  const refusal = { status: 'ERROR', res: { message: CONSENT_TEXTS.required, code: 'CONSENT_REQUIRED' } };

  const connect = async (person: TestPerson) => {
    const client = new RecordingConnection(stack.url, { token: person.token });
    clients.push(client);
    return client.connected();
  };
  /** A REST call through the API port, as the pages make it. */
  const post = async (person: TestPerson, path: string, body: object) => {
    const res = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${person.token}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { res: Record<string, unknown> } };
  };
  const setConsent = async (sessionId: string, text: string) =>
    expect((await post(researcher, '/setSessionConsent', { sessionId, text })).status).toBe(200);
  const agree = async (person: TestPerson, sessionId: string, text: string) =>
    expect((await post(person, '/acceptConsent', { sessionId, sha256: sha256(text) })).status).toBe(200);

  beforeAll(async () => {
    stack = await LiveStack.start('consent');
    researcher = stack.person('researcher', { name: 'Rhea Researcher' });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(() => stack?.close());

  it('refuses a participant who has not agreed, says why, and lets them in once they have', async () => {
    const pat = stack.person('participant', { name: 'Pat' });
    const sessionId = await stack.session({ owner: researcher, scope: [pat] });
    await setConsent(sessionId, 'Your chat is recorded.');
    const owner = await connect(researcher);
    expect((await owner.join(sessionId)).status).toBe('SUCCESS');

    const early = await connect(pat);
    expect(await early.join(sessionId)).toEqual(refusal);
    // The page is told why, and the connection ends (no reconnect can get around it).
    await waitFor(() => early.state.status === 'ended', 'the refused connection to end');
    expect(early.state).toMatchObject({
      accessEnded: CONSENT_TEXTS.required,
      problem: { code: 'FORBIDDEN', message: CONSENT_TEXTS.required },
    });

    // Agreeing lets the next connection in at once: studies had realtime forget its cached refusal.
    await agree(pat, sessionId, 'Your chat is recorded.');
    const later = await connect(pat);
    expect((await later.join(sessionId)).status).toBe('SUCCESS');
    expect((await later.send('Hello after agreeing')).kind).toBe('acknowledged');
    await waitFor(() => owner.texts().includes('Hello after agreeing'), 'the message at the researcher');
  });

  it('refuses a participant’s messages, clicks and presence without agreement, whatever they send', async () => {
    const pia = stack.person('participant', { name: 'Pia' });
    const sessionId = await stack.session({ owner: researcher, scope: null });
    await setConsent(sessionId, 'Agree before anything.');
    const client = await connect(pia);
    const answers = [
      await client.ask('message', { sessionId, message: 'sneaking in' }),
      await client.ask('clickVideo', { sessionId, x: 0.5, y: 0.5, color: '#fff' }),
      await client.ask('syncVideoStatus', { sessionId }),
    ];
    for (const answer of answers) expect(answer).toEqual(refusal);
  });

  it('ends a joined participant’s connection at once when the text changes, and not the researcher’s', async () => {
    const pam = stack.person('participant', { name: 'Pam' });
    const sessionId = await stack.session({ owner: researcher, scope: [pam] });
    await setConsent(sessionId, 'Version one.');
    await agree(pam, sessionId, 'Version one.');
    const owner = await connect(researcher);
    const client = await connect(pam);
    for (const live of [owner, client]) expect((await live.join(sessionId)).status).toBe('SUCCESS');

    await setConsent(sessionId, 'Version two: now with video.');
    await waitFor(() => client.payloadsOf('accessEnded').length > 0, 'accessEnded', 1000);
    expect(client.payloadsOf('accessEnded')).toEqual([{ sessionId, message: CONSENT_TEXTS.required }]);
    expect(client.state.status).toBe('ended');
    expect(owner.payloadsOf('accessEnded')).toEqual([]);
    expect((await owner.send('Still here')).kind).toBe('acknowledged');

    // Agreeing to the new version lets them back.
    await agree(pam, sessionId, 'Version two: now with video.');
    const back = await connect(pam);
    expect((await back.join(sessionId)).status).toBe('SUCCESS');
  });

  it('ends the live connection of a participant who withdraws', async () => {
    const ivo = stack.person('participant', { name: 'Ivo' });
    const sessionId = await stack.session({ owner: researcher, scope: [ivo] });
    const client = await connect(ivo);
    expect((await client.join(sessionId)).status).toBe('SUCCESS');
    expect((await client.send('Before I go')).kind).toBe('acknowledged');

    const withdrawn = await post(ivo, '/withdrawFromSession', { sessionId });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.res.withdrawal).toMatchObject({ messages: 1, clicks: 0 });
    await waitFor(() => client.payloadsOf('accessEnded').length > 0, 'accessEnded', 1000);
    expect(client.payloadsOf('accessEnded')).toEqual([{ sessionId, message: REALTIME_TEXTS.removed }]);
    const owner = await connect(researcher);
    expect((await owner.join(sessionId)).status).toBe('SUCCESS');
    expect(owner.texts()).not.toContain('Before I go');
  });
});
