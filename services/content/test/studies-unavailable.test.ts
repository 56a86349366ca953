import { StudiesStandIn, startContent, upload, type ContentHarness } from './content-harness';

/**
 * With the stand-in for studies, which can fail on purpose: when content cannot ask who may see a
 * session, it refuses (503) rather than guessing, and leaves nothing behind.
 */
describe('when studies cannot answer the access check', () => {
  let h: ContentHarness;
  let sessionId: string;

  beforeAll(async () => {
    h = await startContent('unavailable', { studies: 'stand-in' });
    sessionId = await h.session();
    await h
      .http()
      .post('/addAction')
      .set(h.as('owner').headers)
      .send({ sessionId, name: 'Clap' })
      .expect(200);
    await upload(h.http, h.as('owner').token, sessionId, { name: 'clip.mp4' }).expect(200);
  });
  afterAll(() => h.close());

  it('answers 503 on reads, writes, uploads and the asset, and leaves no spooled file', async () => {
    const calls = [
      () => h.http().get('/getActions').set(h.as('owner').headers).query({ sessionId }),
      () => h.http().post('/addPrompt').set(h.as('owner').headers).send({ sessionId }),
      () => h.http().get('/getVideoInfo').set(h.as('participant').headers).query({ sessionId }),
      () => upload(h.http, h.as('owner').token, sessionId, { name: 'new.mp4' }),
      () => upload(h.http, h.as('owner').token, sessionId, { name: 'new.mp4', sessionIdField: 'last' }),
      () => h.http().get(`/assets/${sessionId}/clip.mp4`).set(h.as('participant').headers),
    ];
    for (const call of calls) {
      StudiesStandIn.failures = 1;
      const res = await call();
      expect([res.status, res.body.res.code]).toEqual([503, 'UNAVAILABLE']);
      expect(res.body.res.message).toMatch(/^studies refused \/internal\/studies\/access/);
    }
    expect(h.spooled()).toEqual([]);
    const info = await h
      .http()
      .get('/getVideoInfo')
      .set(h.as('owner').headers)
      .query({ sessionId })
      .expect(200);
    expect(info.body.res.name).toBe('clip.mp4');
  });

  it('asks studies on every request (a scope change applies to the next one)', async () => {
    const before = StudiesStandIn.calls;
    await h.http().get('/getActions').set(h.as('participant').headers).query({ sessionId }).expect(200);
    await h.editSession(sessionId, { scope: [] });
    await h.http().get('/getActions').set(h.as('participant').headers).query({ sessionId }).expect(403);
    expect(StudiesStandIn.calls - before).toBe(2);
  });
});
