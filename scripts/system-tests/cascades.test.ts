import fs from 'node:fs';
import path from 'node:path';
import { TINY_MP4 } from '@uis/kit/testing';
import { routes } from '@uis/proto';
import { Client } from 'pg';
import { signUp, startComposedStack, type ComposedStack } from './support/composed-stack';

/**
 * What deleting takes with it, through the real services: studies asks content and records first,
 * auth asks studies and records first. Checked in each service's own tables and in the object store.
 */

const MP4 = fs.readFileSync(TINY_MP4);

describe('deletes cascade across services', () => {
  let stack: ComposedStack;
  let db: Client;
  const tokens: Record<string, string> = {};

  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const post = async (who: string, path: string, body: object) => {
    const res = await stack.http().post(path).set(as(who)).send(body);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { res: Record<string, unknown> }).res;
  };
  const count = async (table: string, column: string, value: string) =>
    Number(
      (await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${column} = $1`, [value]))
        .rows[0]!.n,
    );
  const objectsOf = (sessionId: string) => {
    const dir = path.join(stack.objectsDir, sessionId);
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => !file.startsWith('.')).length : 0;
  };

  /** A session with something in every service: an action, a prompt, a video, a message and a click. */
  async function fullSession(groupId: string, participant = 'pat'): Promise<string> {
    const sessionId = (
      (await post('olga', routes.createSession.path, { groupId })).session as { session_id: string }
    ).session_id;
    await post('olga', routes.editSessionInfo.path, {
      sessionId,
      scope: [`${participant}@cascade.test`],
      state: 'live',
    });
    await post('olga', routes.addAction.path, { sessionId });
    await post('olga', routes.addPrompt.path, { sessionId, time: '00:00:03', prompt: 'Now?' });
    await stack
      .http()
      .post(routes.uploadVideo.path)
      .set(as('olga'))
      .field('sessionId', sessionId)
      .attach('file', MP4, { filename: 'clip.mp4', contentType: 'video/mp4' })
      .expect(200);
    await post(participant, routes.addMessage.path, { sessionId, message: `Hi from ${participant}` });
    await post('olga', routes.addPixel.path, { sessionId, x: 0.5, y: 0.5, color: 'n/a' });
    return sessionId;
  }

  async function expectNothingLeft(sessionId: string) {
    expect({
      sessions: await count('studies.sessions', 'id', sessionId),
      actions: await count('content.actions', 'session_id', sessionId),
      prompts: await count('content.prompts', 'session_id', sessionId),
      videos: await count('content.videos', 'session_id', sessionId),
      objects: objectsOf(sessionId),
      messages: await count('records.messages', 'session_id', sessionId),
      pixels: await count('records.pixels', 'session_id', sessionId),
    }).toEqual({ sessions: 0, actions: 0, prompts: 0, videos: 0, objects: 0, messages: 0, pixels: 0 });
  }

  beforeAll(async () => {
    stack = await startComposedStack('cascades');
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    for (const who of ['olga', 'pat', 'pia']) {
      const type = who === 'olga' ? 'researcher' : 'participant';
      tokens[who] = (await signUp(stack, `${who}@cascade.test`, who, type)).token;
    }
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    await stack?.close();
  });

  it('deleting a session removes its actions, prompts, video object, messages and clicks', async () => {
    const groupId = ((await post('olga', routes.createGroup.path, {})).group as { group_id: string })
      .group_id;
    const sessionId = await fullSession(groupId);
    expect(objectsOf(sessionId)).toBeGreaterThan(0);
    expect(await count('records.messages', 'session_id', sessionId)).toBe(1);
    await post('olga', routes.deleteSession.path, { sessionId });
    await expectNothingLeft(sessionId);
  });

  it('deleting a group removes every session of it, with their data', async () => {
    const groupId = ((await post('olga', routes.createGroup.path, {})).group as { group_id: string })
      .group_id;
    const sessions = [await fullSession(groupId), await fullSession(groupId)];
    await post('olga', routes.deleteGroup.path, { groupId });
    for (const sessionId of sessions) await expectNothingLeft(sessionId);
    expect(await count('studies.groups', 'id', groupId)).toBe(0);
  });

  it('switching a session away from video removes its video', async () => {
    const groupId = ((await post('olga', routes.createGroup.path, {})).group as { group_id: string })
      .group_id;
    const sessionId = await fullSession(groupId);
    await post('olga', routes.editSessionInfo.path, { sessionId, type: 'chat' });
    expect(await count('content.videos', 'session_id', sessionId)).toBe(0);
    expect(objectsOf(sessionId)).toBe(0);
    const info = await stack
      .http()
      .get(routes.getVideoInfo.path)
      .set(as('olga'))
      .query({ sessionId })
      .expect(200);
    expect(info.body.res).toEqual({ name: null });
  });

  it("a participant's account deletion erases what they wrote and their e-mail from scopes", async () => {
    const groupId = ((await post('olga', routes.createGroup.path, {})).group as { group_id: string })
      .group_id;
    const sessionId = await fullSession(groupId);
    await post('pat', routes.deleteUser.path, { email: 'pat@cascade.test' });
    expect(await count('records.messages', 'session_id', sessionId)).toBe(0);
    expect(await count('records.pixels', 'session_id', sessionId)).toBe(1);
    const scope = await db.query<{ scope: unknown }>('SELECT scope FROM studies.sessions WHERE id = $1', [
      sessionId,
    ]);
    expect(scope.rows[0]!.scope).toEqual([]);
  });

  it("a researcher's account deletion removes their groups, sessions and everything in them", async () => {
    const groupId = ((await post('olga', routes.createGroup.path, {})).group as { group_id: string })
      .group_id;
    const sessionId = await fullSession(groupId, 'pia');
    await post('olga', routes.deleteUser.path, { email: 'olga@cascade.test' });
    await expectNothingLeft(sessionId);
    expect(await count('studies.groups', 'id', groupId)).toBe(0);
    expect(await count('auth.users', 'email', 'olga@cascade.test')).toBe(0);
  });
});
