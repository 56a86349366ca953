import { randomUUID } from 'node:crypto';
import { InternalClient } from '@uis/kit';
import { SERVICE_TOKEN_HEADER, internalRoutes } from '@uis/proto';
import { startContent, upload, type ContentHarness } from './content-harness';

describe('internal endpoints (service token only)', () => {
  let h: ContentHarness;
  let internal: InternalClient;

  beforeAll(async () => {
    h = await startContent('internal');
    internal = new InternalClient({ serviceToken: h.env.SERVICE_TOKEN!, urlOf: () => h.env.CONTENT_URL! });
  });
  afterAll(() => h.close());

  /** A session with two actions, two prompts and a video. */
  const filledSession = async () => {
    const sessionId = await h.session();
    for (const name of ['Clap', 'Wave']) {
      await h.http().post('/addAction').set(h.as('owner').headers).send({ sessionId, name }).expect(200);
    }
    for (const time of ['00:00:10', '00:00:05']) {
      await h
        .http()
        .post('/addPrompt')
        .set(h.as('owner').headers)
        .send({ sessionId, time, prompt: `at ${time}` })
        .expect(200);
    }
    await upload(h.http, h.as('owner').token, sessionId).expect(200);
    return sessionId;
  };
  const contentOf = async (sessionId: string) => ({
    actions: (await h.http().get('/getActions').set(h.as('owner').headers).query({ sessionId }).expect(200))
      .body.res.actions.length as number,
    prompts: (await h.http().get('/getPrompts').set(h.as('owner').headers).query({ sessionId }).expect(200))
      .body.res.prompts.length as number,
    video: (await h.http().get('/getVideoInfo').set(h.as('owner').headers).query({ sessionId }).expect(200))
      .body.res.name as string | null,
    objects: (await h.objects(`${sessionId}/`)).length,
  });

  it('lists a session’s prompts by time for records’ export', async () => {
    const sessionId = await filledSession();
    const { prompts } = await internal.call(internalRoutes.contentListPrompts, { sessionId });
    expect(prompts.map((p) => [p.time, p.prompt])).toEqual([
      [5, 'at 00:00:05'],
      [10, 'at 00:00:10'],
    ]);
    expect(
      (await internal.call(internalRoutes.contentListPrompts, { sessionId: randomUUID() })).prompts,
    ).toEqual([]);
  });

  it('names a session’s uploaded video for records’ exports', async () => {
    const sessionId = await filledSession();
    expect(await internal.call(internalRoutes.contentSessionVideo, { sessionId })).toEqual({
      name: 'clip.mp4',
    });
    await internal.call(internalRoutes.contentVideoDelete, { sessionId });
    expect(await internal.call(internalRoutes.contentSessionVideo, { sessionId })).toEqual({ name: null });
  });

  it('lists a session’s actions in the order added for records’ exports', async () => {
    const sessionId = await filledSession();
    const { actions } = await internal.call(internalRoutes.contentListActions, { sessionId });
    const listed = await h
      .http()
      .get('/getActions')
      .set(h.as('owner').headers)
      .query({ sessionId })
      .expect(200);
    expect(actions).toEqual(listed.body.res.actions);
    expect(actions.map((a) => a.name)).toEqual(['Clap', 'Wave']);
    expect(
      (await internal.call(internalRoutes.contentListActions, { sessionId: randomUUID() })).actions,
    ).toEqual([]);
    await h.http().get(internalRoutes.contentListActions.path).query({ sessionId }).expect(403);
  });

  it('deletes the actions, prompts and video of the given sessions only; again is harmless', async () => {
    // One after another: a researcher may have only UPLOADS_PER_USER (2) uploads in progress at once.
    const [gone, alsoGone, kept] = [await filledSession(), await filledSession(), await filledSession()];
    expect(await contentOf(gone)).toEqual({ actions: 2, prompts: 2, video: 'clip.mp4', objects: 1 });

    const sessionIds = [gone, alsoGone, randomUUID()];
    await expect(internal.call(internalRoutes.contentSessionDataDelete, { sessionIds })).resolves.toEqual({
      message: 'Session data deleted.',
    });
    for (const sessionId of [gone, alsoGone]) {
      expect(await contentOf(sessionId)).toEqual({ actions: 0, prompts: 0, video: null, objects: 0 });
    }
    expect(await contentOf(kept)).toEqual({ actions: 2, prompts: 2, video: 'clip.mp4', objects: 1 });
    await internal.call(internalRoutes.contentSessionDataDelete, { sessionIds });
  });

  it('deletes one session’s video, idempotently', async () => {
    const sessionId = await filledSession();
    await internal.call(internalRoutes.contentVideoDelete, { sessionId });
    expect(await contentOf(sessionId)).toEqual({ actions: 2, prompts: 2, video: null, objects: 0 });
    await internal.call(internalRoutes.contentVideoDelete, { sessionId });
  });

  it('refuses callers without the service token, and bad input', async () => {
    const path = internalRoutes.contentSessionDataDelete.path;
    await h
      .http()
      .post(path)
      .send({ sessionIds: [randomUUID()] })
      .expect(403);
    await h
      .http()
      .post(path)
      .set(SERVICE_TOKEN_HEADER, 'wrong')
      .send({ sessionIds: [randomUUID()] })
      .expect(403);
    await h
      .http()
      .post(path)
      .set(h.as('owner').headers)
      .send({ sessionIds: [randomUUID()] })
      .expect(403);
    const empty = await h
      .http()
      .post(path)
      .set(SERVICE_TOKEN_HEADER, h.env.SERVICE_TOKEN!)
      .send({ sessionIds: [] });
    expect(empty.status).toBe(400);
    const bad = await h
      .http()
      .get(internalRoutes.contentListPrompts.path)
      .set(SERVICE_TOKEN_HEADER, h.env.SERVICE_TOKEN!)
      .query({ sessionId: 'x' })
      .expect(400);
    expect(bad.body.res.message).toBe('sessionId: is not a valid id');
  });

  it('is what studies calls when the owner deletes a session or its group', async () => {
    const sessionId = await filledSession();
    await h.studiesHttp().post('/deleteSession').set(h.as('owner').headers).send({ sessionId }).expect(200);
    expect(await h.objects(`${sessionId}/`)).toEqual([]);
    const { prompts } = await internal.call(internalRoutes.contentListPrompts, { sessionId });
    expect(prompts).toEqual([]);
    // The session is gone for content's REST routes as well.
    await h.http().get('/getActions').set(h.as('owner').headers).query({ sessionId }).expect(404);
  });
});
