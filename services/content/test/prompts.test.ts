import { randomUUID } from 'node:crypto';
import { promptsOf, startContent, type ContentHarness, type CastName } from './content-harness';

describe('prompts', () => {
  let h: ContentHarness;
  let sessionId: string;

  beforeAll(async () => {
    h = await startContent('prompts');
    sessionId = await h.session();
  });
  afterAll(() => h.close());

  const add = (body: Record<string, unknown>, as: CastName = 'owner') =>
    h.http().post('/addPrompt').set(h.as(as).headers).send(body);
  const edit = (body: Record<string, unknown>, as: CastName = 'owner') =>
    h.http().post('/editPrompt').set(h.as(as).headers).send(body);
  const list = (id = sessionId, as: CastName = 'owner') =>
    h.http().get('/getPrompts').set(h.as(as).headers).query({ sessionId: id });

  it('adds with hh:mm:ss converted to seconds, lists by time, edits and deletes', async () => {
    const session = await h.session();
    const late = await add({ sessionId: session, time: '01:02:03', duration: 2.5, prompt: 'Why?' }).expect(
      200,
    );
    expect(late.body).toEqual({
      status: 'SUCCESS',
      res: {
        prompt: {
          prompt_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
          time: 3723,
          duration: 2.5,
          prompt: 'Why?',
        },
      },
    });
    const defaults = await add({ sessionId: session }).expect(200);
    expect(defaults.body.res.prompt).toMatchObject({ time: 0, duration: 0, prompt: '' });
    await add({ sessionId: session, time: '00:01:05', prompt: 'Middle' }).expect(200);

    const listed = await list(session).expect(200);
    expect(promptsOf(listed).map((p) => p.time)).toEqual([0, 65, 3723]);

    const promptId = late.body.res.prompt.prompt_id as string;
    await edit({ promptId, time: '00:00:30', duration: 0, prompt: 'Earlier now' }).expect(200, {
      status: 'SUCCESS',
      res: { message: 'Prompt updated.' },
    });
    await edit({ promptId, duration: 10 }).expect(200);
    const edited = await list(session).expect(200);
    expect(edited.body.res.prompts).toEqual([
      expect.objectContaining({ time: 0 }),
      { prompt_id: promptId, time: 30, duration: 10, prompt: 'Earlier now' },
      expect.objectContaining({ time: 65, prompt: 'Middle' }),
    ]);

    await h
      .http()
      .post('/deletePrompt')
      .set(h.as('owner').headers)
      .send({ promptId })
      .expect(200, { status: 'SUCCESS', res: { message: 'Prompt deleted.' } });
    expect(promptsOf(await list(session).expect(200)).map((p) => p.time)).toEqual([0, 65]);
    await h.http().post('/deletePrompt').set(h.as('owner').headers).send({ promptId }).expect(404);
  });

  it('refuses a second prompt at the same second (prompts are keyed by start second), on add and on edit', async () => {
    const session = await h.session();
    await add({ sessionId: session, time: '00:01:05', prompt: 'First' }).expect(200);
    const clash = await add({ sessionId: session, time: '0:01:05', prompt: 'Second' }).expect(409);
    expect(clash.body.res).toMatchObject({
      code: 'CONFLICT',
      message: 'A prompt already starts at 00:01:05 in this session.',
    });

    const other = await add({ sessionId: session, time: '00:02:00' }).expect(200);
    const moved = await edit({ promptId: other.body.res.prompt.prompt_id, time: '00:01:05' }).expect(409);
    expect(moved.body.res.message).toBe('A prompt already starts at 00:01:05 in this session.');
    // Editing a prompt to its own second is no clash; another session may use the same second.
    await edit({ promptId: other.body.res.prompt.prompt_id, time: '00:02:00', prompt: 'Same' }).expect(200);
    await add({ sessionId: await h.session(), time: '00:01:05' }).expect(200);

    const listed = await list(session).expect(200);
    expect(promptsOf(listed).map((p) => p.prompt)).toEqual(['First', 'Same']);
  });

  describe('refuses bad input with a message that says why', () => {
    const clock = 'time: must be a time as hh:mm:ss, with minutes and seconds from 00 to 59';
    it.each([
      [{ time: '1:5' }, clock],
      [{ time: '00:60:00' }, clock],
      [{ time: '00:00:75' }, clock],
      [{ time: 'noon' }, clock],
      [{ time: '-00:00:01' }, clock],
      [{ time: 65 }, 'time: must be text'],
      [{ duration: -1 }, 'duration: must not be negative'],
      [{ duration: '5' }, 'duration: must be a number of seconds'],
      [{ duration: 86_401 }, 'duration: must be at most 86400 seconds'],
      [{ prompt: 'x'.repeat(2001) }, 'prompt: must be at most 2000 characters'],
      [{ prompt: 7 }, 'prompt: must be text'],
    ])('addPrompt %j', async (bad, message) => {
      const res = await add({ sessionId, ...bad }).expect(400);
      expect(res.body).toMatchObject({ status: 'ERROR', res: { message, code: 'VALIDATION' } });
    });

    it('editPrompt with nothing to change, a bad field or a bad id; the others with bad ids', async () => {
      const { body } = await add({ sessionId, time: '00:09:00' }).expect(200);
      const promptId = body.res.prompt.prompt_id as string;
      expect((await edit({ promptId }).expect(400)).body.res.message).toBe(
        'nothing to change: send at least one of time, duration, prompt',
      );
      expect((await edit({ promptId, time: '9:99:99' }).expect(400)).body.res.message).toBe(clock);
      expect((await edit({ promptId, duration: -0.5 }).expect(400)).body.res.message).toBe(
        'duration: must not be negative',
      );
      expect((await edit({ promptId: '12', prompt: 'x' }).expect(400)).body.res.message).toBe(
        'promptId: is not a valid id',
      );
      const del = await h
        .http()
        .post('/deletePrompt')
        .set(h.as('owner').headers)
        .send({ promptId: 'x' })
        .expect(400);
      expect(del.body.res.message).toBe('promptId: is not a valid id');
      expect((await add({}).expect(400)).body.res.message).toBe('This field must not be empty');
      expect((await list('nope').expect(400)).body.res.message).toBe('sessionId: is not a valid id');
    });
  });

  describe('access', () => {
    let promptId: string;
    beforeAll(async () => {
      const { body } = await add({ sessionId, time: '00:05:00', prompt: 'Owned' }).expect(200);
      promptId = body.res.prompt.prompt_id as string;
    });

    it('lets only the owner read (researchers only: the researcher’s player fires them)', async () => {
      await list().expect(200);
      for (const person of ['participant', 'outsider'] as const) {
        expect((await list(sessionId, person).expect(403)).body.res.message).toBe(
          'Only researchers can do this.',
        );
      }
      const other = await list(sessionId, 'otherResearcher').expect(403);
      expect(other.body.res.message).toBe('Only the researcher who owns this session can do this.');
      await h.http().get('/getPrompts').query({ sessionId }).expect(401);
    });

    it('lets only the owner write', async () => {
      for (const person of ['participant', 'outsider', 'otherResearcher'] as const) {
        await add({ sessionId, time: '00:07:00' }, person).expect(403);
        await edit({ promptId, prompt: 'Hijacked' }, person).expect(403);
        await h.http().post('/deletePrompt').set(h.as(person).headers).send({ promptId }).expect(403);
      }
      await h.http().post('/addPrompt').send({ sessionId }).expect(401);
      await h.http().post('/editPrompt').send({ promptId, prompt: 'x' }).expect(401);
      await h.http().post('/deletePrompt').send({ promptId }).expect(401);
      const listed = await list().expect(200);
      const owned = promptsOf(listed).find((p) => p.prompt_id === promptId);
      expect(owned!.prompt).toBe('Owned');
    });

    it('answers 404 for a session or a prompt that does not exist', async () => {
      const missing = randomUUID();
      expect((await list(missing).expect(404)).body.res.message).toBe('No such session.');
      await add({ sessionId: missing }).expect(404);
      expect((await edit({ promptId: missing, prompt: 'x' }).expect(404)).body.res.message).toBe(
        'No such prompt.',
      );
      await h.http().post('/deletePrompt').set(h.as('owner').headers).send({ promptId: missing }).expect(404);
    });
  });
});
