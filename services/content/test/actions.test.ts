import { randomUUID } from 'node:crypto';
import { actionsOf, startContent, type ContentHarness, type CastName } from './content-harness';

describe('actions', () => {
  let h: ContentHarness;
  let sessionId: string;

  beforeAll(async () => {
    h = await startContent('actions');
    sessionId = await h.session();
  });
  afterAll(() => h.close());

  const add = (body: Record<string, unknown>, as: CastName = 'owner') =>
    h.http().post('/addAction').set(h.as(as).headers).send(body);
  const list = (id = sessionId, as: CastName = 'owner') =>
    h.http().get('/getActions').set(h.as(as).headers).query({ sessionId: id });

  it('adds with the defaults, lists oldest first, edits and deletes', async () => {
    const session = await h.session();
    const first = await add({ sessionId: session }).expect(200);
    expect(first.body).toEqual({
      status: 'SUCCESS',
      res: {
        action: {
          action_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
          name: 'New action',
          color: '#000000',
          icon: 'thumb_up',
          type: 'filled',
        },
      },
    });
    const second = await add({
      sessionId: session,
      name: '  Clap  ',
      color: '#FFAA00',
      icon: 'celebration',
      type: 'two-tone',
    }).expect(200);
    expect(second.body.res.action).toMatchObject({
      name: 'Clap',
      color: '#ffaa00',
      icon: 'celebration',
      type: 'two-tone',
    });

    const listed = await list(session).expect(200);
    expect(actionsOf(listed).map((a) => a.name)).toEqual(['New action', 'Clap']);

    const actionId = first.body.res.action.action_id as string;
    await h
      .http()
      .post('/editAction')
      .set(h.as('owner').headers)
      .send({ actionId, color: 'TRANSPARENT', type: 'outlined' })
      .expect(200, { status: 'SUCCESS', res: { message: 'Action updated.' } });
    await h
      .http()
      .post('/editAction')
      .set(h.as('owner').headers)
      .send({ actionId, name: 'Wave', icon: 'waving_hand' })
      .expect(200);
    const edited = await list(session).expect(200);
    expect(edited.body.res.actions[0]).toEqual({
      action_id: actionId,
      name: 'Wave',
      color: 'transparent',
      icon: 'waving_hand',
      type: 'outlined',
    });

    await h
      .http()
      .post('/deleteAction')
      .set(h.as('owner').headers)
      .send({ actionId })
      .expect(200, { status: 'SUCCESS', res: { message: 'Action deleted.' } });
    const after = await list(session).expect(200);
    expect(actionsOf(after).map((a) => a.name)).toEqual(['Clap']);
    await h.http().post('/deleteAction').set(h.as('owner').headers).send({ actionId }).expect(404);
  });

  it('keeps each session’s actions apart', async () => {
    const other = await h.session();
    await add({ sessionId: other, name: 'Only here' }).expect(200);
    const listed = await list(sessionId).expect(200);
    expect(actionsOf(listed).map((a) => a.name)).not.toContain('Only here');
  });

  describe('refuses bad input with a message that says what is wrong', () => {
    it.each([
      [{ color: 'red' }, "color: must be a hex colour (#rgb, #rrggbb or #rrggbbaa) or 'transparent'"],
      [{ color: '#12345' }, "color: must be a hex colour (#rgb, #rrggbb or #rrggbbaa) or 'transparent'"],
      [{ color: 42 }, 'color: must be text'],
      [{ type: 'bold' }, 'type: must be one of filled, outlined, round, sharp, two-tone'],
      [
        { icon: 'Thumb Up' },
        'icon: must be a Material icon name (lowercase letters, digits and underscores)',
      ],
      [{ icon: '' }, 'This field must not be empty'],
      [{ name: '   ' }, 'This field must not be empty'],
      [{ name: 'x'.repeat(201) }, 'name: must be at most 200 characters'],
    ])('addAction %j', async (bad, message) => {
      const res = await add({ sessionId, ...bad }).expect(400);
      expect(res.body).toMatchObject({ status: 'ERROR', res: { message, code: 'VALIDATION' } });
    });

    it('addAction and getActions without or with a bad session id', async () => {
      expect((await add({}).expect(400)).body.res.message).toBe('This field must not be empty');
      expect((await add({ sessionId: 'abc' }).expect(400)).body.res.message).toBe(
        'sessionId: is not a valid id',
      );
      expect((await list('abc').expect(400)).body.res.message).toBe('sessionId: is not a valid id');
      expect(
        (await h.http().get('/getActions').set(h.as('owner').headers).expect(400)).body.res.message,
      ).toBe('This field must not be empty');
    });

    it('editAction with nothing to change, a bad field or a bad id; deleteAction with a bad id', async () => {
      const { body } = await add({ sessionId }).expect(200);
      const actionId = body.res.action.action_id as string;
      const edit = (payload: Record<string, unknown>) =>
        h.http().post('/editAction').set(h.as('owner').headers).send(payload).expect(400);
      expect((await edit({ actionId })).body.res.message).toBe(
        'nothing to change: send at least one of name, color, icon, type',
      );
      expect((await edit({ actionId, colour: '#fff' })).body.res.message).toBe(
        'nothing to change: send at least one of name, color, icon, type',
      );
      expect((await edit({ actionId, type: 'italic' })).body.res.message).toBe(
        'type: must be one of filled, outlined, round, sharp, two-tone',
      );
      expect((await edit({ actionId, color: 'blue' })).body.res.message).toMatch(
        /^color: must be a hex colour/,
      );
      expect((await edit({ actionId: 'nope', name: 'x' })).body.res.message).toBe(
        'actionId: is not a valid id',
      );
      const del = await h.http().post('/deleteAction').set(h.as('owner').headers).send({}).expect(400);
      expect(del.body.res.message).toBe('This field must not be empty');
      const json = await h
        .http()
        .post('/addAction')
        .set(h.as('owner').headers)
        .set('content-type', 'application/json')
        .send('{"sessionId":')
        .expect(400);
      expect(json.body).toMatchObject({ status: 'ERROR', res: { message: expect.any(String) as string } });
    });
  });

  describe('access', () => {
    let actionId: string;
    beforeAll(async () => {
      const { body } = await add({ sessionId, name: 'Owned' }).expect(200);
      actionId = body.res.action.action_id as string;
    });

    it('lets the owner and a participant in scope read; others get 403, anonymous 401', async () => {
      const expected: Record<CastName, number> = {
        owner: 200,
        participant: 200,
        outsider: 403,
        otherResearcher: 403,
      };
      for (const [person, status] of Object.entries(expected) as [CastName, number][]) {
        const res = await list(sessionId, person);
        expect([person, res.status]).toEqual([person, status]);
        if (status === 403) expect(res.body.res.message).toBe('You are not part of this session.');
        // Nothing of another person travels in an answer.
        for (const other of Object.values(h.people).filter((p) => p !== h.as(person))) {
          expect(res.text).not.toContain(other.user.email);
          expect(res.text).not.toContain(other.user.id);
        }
      }
      await h.http().get('/getActions').query({ sessionId }).expect(401);
      await h
        .http()
        .get('/getActions')
        .set('authorization', 'Bearer forged')
        .query({ sessionId })
        .expect(401);
    });

    it('lets only the owner write', async () => {
      for (const person of ['participant', 'outsider'] as const) {
        const res = await add({ sessionId }, person).expect(403);
        expect(res.body.res.message).toBe('Only researchers can do this.');
        await h
          .http()
          .post('/editAction')
          .set(h.as(person).headers)
          .send({ actionId, name: 'x' })
          .expect(403);
        await h.http().post('/deleteAction').set(h.as(person).headers).send({ actionId }).expect(403);
      }
      const other = await add({ sessionId }, 'otherResearcher').expect(403);
      expect(other.body.res.message).toBe('Only the researcher who owns this session can do this.');
      await h
        .http()
        .post('/editAction')
        .set(h.as('otherResearcher').headers)
        .send({ actionId, name: 'Mine' })
        .expect(403);
      await h
        .http()
        .post('/deleteAction')
        .set(h.as('otherResearcher').headers)
        .send({ actionId })
        .expect(403);
      await h.http().post('/addAction').send({ sessionId }).expect(401);
      await h.http().post('/editAction').send({ actionId, name: 'x' }).expect(401);
      await h.http().post('/deleteAction').send({ actionId }).expect(401);

      const listed = await list().expect(200);
      expect(actionsOf(listed).find((a) => a.action_id === actionId)!.name).toBe('Owned');
    });

    it('answers 404 for a session or an action that does not exist', async () => {
      const missing = randomUUID();
      expect((await list(missing).expect(404)).body.res.message).toBe('No such session.');
      await add({ sessionId: missing }).expect(404);
      const edit = await h
        .http()
        .post('/editAction')
        .set(h.as('owner').headers)
        .send({ actionId: missing, name: 'x' });
      expect([edit.status, edit.body.res.message]).toEqual([404, 'No such action.']);
      await h.http().post('/deleteAction').set(h.as('owner').headers).send({ actionId: missing }).expect(404);
    });

    it('follows scope changes at once (no caching on REST)', async () => {
      const session = await h.session({ scope: [] });
      await list(session, 'participant').expect(403);
      await h.editSession(session, { scope: [h.users.participant.email] });
      await list(session, 'participant').expect(200);
      await h.editSession(session, { scope: 'Everyone' });
      await list(session, 'outsider').expect(200);
    });
  });
});
