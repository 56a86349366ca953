import { SESSION_ACCESS_TEXTS } from '@uis/kit';
import { waitFor } from '@uis/kit/testing';
import { REALTIME_TEXTS } from '../src/realtime.texts';
import { RecordingConnection } from './support/recording-connection';
import { useTwoReplicas } from './support/two-replicas';

/**
 * A session's life as its participants see it, across two replicas: not started (they wait, and
 * nothing of theirs is taken), live once the researcher opens its live page or opens it from the
 * editor, ended (closed, also to REST) until the researcher reopens it.
 */
describe('a session not started, live and ended', () => {
  const live = useTwoReplicas('session_lifecycle');
  const { connect } = live;
  /** Clients of the stack's own realtime, closed after each test. */
  const afterThis: RecordingConnection[] = [];
  afterEach(() => afterThis.splice(0).forEach((client) => client.close()));
  const notStarted = {
    status: 'ERROR',
    res: { message: SESSION_ACCESS_TEXTS.notStarted, code: 'SESSION_NOT_STARTED' },
  };
  /** A route of the stack, as the web app calls it. */
  const call = (path: string, token: string, body: unknown) =>
    fetch(`${live.stack.url}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });

  it('keeps a participant who came early waiting, and lets them in when the researcher opens the live page', async () => {
    const sessionId = await live.stack.session({
      owner: live.researcher,
      scope: [live.pat, live.pia],
      live: false,
    });
    const pat = await connect(live.b, live.pat);
    expect((await pat.join(sessionId)).status).toBe('SUCCESS');
    await waitFor(() => pat.state.sessionState === 'not_started', 'told it has not started');
    expect(await pat.ask('message', { sessionId, message: 'anyone here?' })).toEqual(notStarted);
    expect(await pat.ask('clickVideo', { sessionId, x: 0.5, y: 0.5, color: 'rgb(1, 2, 3)' })).toEqual(
      notStarted,
    );
    expect((await call('addMessage', live.pat.token, { sessionId, message: 'over REST' })).status).toBe(409);

    // The researcher opens the live page on the other replica: Pat goes in.
    const owner = await connect(live.a, live.researcher);
    expect((await owner.join(sessionId)).status).toBe('SUCCESS');
    await waitFor(() => owner.state.sessionState === 'live', 'the researcher sees it live');
    await waitFor(() => pat.state.sessionState === 'live', 'Pat told it started');
    const sent = await pat.ask('message', { sessionId, message: 'hello' });
    expect(sent.status).toBe('SUCCESS');
    await waitFor(() => owner.texts().includes('hello'), 'the researcher got it');
  });

  it('opens from the editor without the live page, and an ended session is not reopened there', async () => {
    const sessionId = await live.stack.session({ owner: live.researcher, scope: [live.pat], live: false });
    // On the stack's own realtime: the one studies' notices reach in this stack.
    const pat = new RecordingConnection(live.stack.url, { token: live.pat.token });
    afterThis.push(pat);
    await pat.connected();
    await pat.join(sessionId);
    await waitFor(() => pat.state.sessionState === 'not_started', 'waiting');
    expect((await call('editSessionInfo', live.researcher.token, { sessionId, state: 'live' })).status).toBe(
      200,
    );
    await waitFor(() => pat.state.sessionState === 'live', 'Pat told it opened');
    expect((await pat.ask('message', { sessionId, message: 'we start alone' })).status).toBe('SUCCESS');

    const owner = new RecordingConnection(live.stack.url, { token: live.researcher.token });
    afterThis.push(owner);
    await owner.connected();
    await owner.join(sessionId);
    expect((await owner.endSession()).status).toBe('SUCCESS');
    await waitFor(() => pat.state.ended !== null, 'Pat told it ended');
    const reopenHere = await call('editSessionInfo', live.researcher.token, { sessionId, state: 'live' });
    expect(reopenHere.status).toBe(409);
    // Closed to REST writes too, for everyone.
    expect((await call('addMessage', live.pat.token, { sessionId, message: 'late' })).status).toBe(409);
    expect((await call('addMessage', live.researcher.token, { sessionId, message: 'late' })).status).toBe(
      409,
    );
  });

  it("refuses a participant's reopening, and reopening a live session changes nothing", async () => {
    const sessionId = await live.stack.session({ owner: live.researcher, scope: [live.pat] });
    const owner = await connect(live.a, live.researcher);
    await owner.join(sessionId);
    const pat = await connect(live.b, live.pat);
    await pat.join(sessionId);
    expect(await pat.ask('reopenSession', { sessionId })).toEqual({
      status: 'ERROR',
      res: { message: REALTIME_TEXTS.ownerOnly, code: 'FORBIDDEN' },
    });
    expect(await owner.ask('reopenSession', { sessionId })).toEqual({ status: 'SUCCESS', res: null });
    expect((await pat.ask('message', { sessionId, message: 'still live' })).status).toBe('SUCCESS');
  });
});
