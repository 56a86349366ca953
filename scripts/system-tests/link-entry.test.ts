import { LiveConnection } from '@uis/live-client';
import { PSEUDONYMOUS_EMAIL_DOMAIN, type PanelIds } from '@uis/proto';
import { startComposedStack, type ComposedStack } from './support/composed-stack';

/**
 * A participant enters through a join link without an e-mail (auth's enterThroughLink, then
 * studies' joinSession with the same token), across the whole stack: the panel id names the
 * participant (the same one again in another browser, with the link), a link without one makes a
 * new pseudonymous participant, and nobody gets in through an unknown link or an ended session.
 */
describe('entering through a join link without an e-mail', () => {
  let stack: ComposedStack;
  beforeAll(async () => {
    stack = await startComposedStack('link_entry');
  }, 60_000);
  afterAll(() => stack?.close());

  /** A new session of the owner's, not started, with a join link: its token. */
  const linkedSession = async () => {
    const sessionId = await stack.session({ scope: [], live: false });
    const { joinLink } = await stack.api.ok('createJoinLink', { sessionId }, stack.as('owner').token);
    return { sessionId, token: joinLink.token };
  };
  /** Enters as a browser does, then joins: the participant's user and the session they join. */
  const enter = async (token: string, panelIds: PanelIds = {}) => {
    const tokens = await stack.api.ok('enterThroughLink', { token, panelIds });
    const { user } = await stack.api.ok('getUserFromToken', {}, tokens.accessToken);
    const joined = await stack.api.ok('joinSession', { token, panelIds }, tokens.accessToken);
    return { user, tokens, joined };
  };

  it('names the participant by their panel id, again in another browser, and only for this researcher', async () => {
    const { sessionId, token } = await linkedSession();
    const { token: laterToken } = await linkedSession();
    const ids = { PROLIFIC_PID: '5f1a2b3c4d5e6f7a8b9c0d1e', STUDY_ID: 'S1', SESSION_ID: 'A1' };
    const first = await enter(token, ids);
    expect(first.user.type).toBe('participant');
    expect(first.user.email.endsWith(`@${PSEUDONYMOUS_EMAIL_DOMAIN}`)).toBe(true);
    expect(first.user.email).not.toContain(ids.PROLIFIC_PID);
    expect(first.user.name).toMatch(/^Participant [A-Z0-9]{4}$/);
    expect(first.joined).toEqual({ sessionId });

    // Another browser, the same id (another attempt of the same study): the same participant.
    const again = await enter(token, { ...ids, SESSION_ID: 'A2' });
    expect(again.user.id).toBe(first.user.id);
    // Another link of the same researcher: still them.
    expect((await enter(laterToken, ids)).user.id).toBe(first.user.id);
    // The researcher sees them once, under the pseudonym, with the first ids and the second attempt's.
    const { people } = await stack.api.ok('getSessionPeople', { sessionId }, stack.as('owner').token);
    expect(people).toEqual([
      expect.objectContaining({ email: first.user.email, panelIds: ids, status: 'joined', source: 'link' }),
    ]);
    expect(people[0]!.panelIdConflicts.map((conflict) => conflict.panelIds.SESSION_ID)).toEqual(['A2']);
  });

  it('makes a new participant for a link without a panel id, each time', async () => {
    const { token } = await linkedSession();
    const [one, two] = [await enter(token), await enter(token)];
    expect(one.user.id).not.toBe(two.user.id);
    expect(two.user.email.endsWith(`@${PSEUDONYMOUS_EMAIL_DOMAIN}`)).toBe(true);
  });

  it('lets nobody in through an unknown link or into an ended session, and mails no pseudonym', async () => {
    const unknown = await stack.api.call('enterThroughLink', { token: 'x'.repeat(43), panelIds: {} });
    expect(unknown.status).toBe(404);
    const { sessionId, token } = await linkedSession();
    const owner = stack.as('owner');
    await stack.api.ok('editSessionInfo', { sessionId, state: 'live' }, owner.token);
    // The researcher ends it on the live page: the link takes nobody in.
    const live = new LiveConnection({ url: stack.env.PUBLIC_URL, accessToken: () => owner.token });
    try {
      await live.connected();
      expect((await live.join(sessionId)).status).toBe('SUCCESS');
      expect((await live.endSession()).status).toBe('SUCCESS');
    } finally {
      live.close();
    }
    const ended = await stack.api.call('enterThroughLink', { token, panelIds: { PROLIFIC_PID: 'late' } });
    expect(ended.status).toBe(409);
    expect(ended.error?.code).toBe('SESSION_ENDED');
    const mailed = await stack.api.call('magicLogin', { destination: `p-abc@${PSEUDONYMOUS_EMAIL_DOMAIN}` });
    expect(mailed.status).toBe(400);
  });
});
