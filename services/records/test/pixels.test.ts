import { sendInput } from '@uis/kit/testing';
import { PixelRecord, STREAM_PIXEL_COLOR, type PixelRecord as Pixel } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import {
  expectNoIdentities,
  startRecords,
  type Caller,
  type RecordsHarness,
} from './support/records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('pixels');
});
afterAll(() => h.close());

const click = (sessionId: string, extra: object = {}) => ({
  sessionId,
  color: 'rgba(10, 20, 30, 255)',
  x: 0.25,
  y: 0.75,
  ...extra,
});
const addPixel = async (sessionId: string, extra: object = {}): Promise<Pixel> => {
  const res = await h
    .http()
    .post('/addPixel')
    .set(h.as('owner').headers)
    .send(click(sessionId, extra))
    .expect(200);
  return PixelRecord.parse(res.body.res.pixel);
};
const listPixels = async (sessionId: string): Promise<Pixel[]> => {
  const res = await h.http().get('/getPixels').set(h.as('owner').headers).query({ sessionId }).expect(200);
  return (res.body.res.pixels as unknown[]).map((p) => PixelRecord.parse(p));
};

describe('pixels: create, read, delete', () => {
  it('the owner records a click under their own name, with the video time when sent', async () => {
    const sessionId = await h.session();
    const res = await h
      .http()
      .post('/addPixel')
      .set(h.as('owner').headers)
      .send(click(sessionId, { name: 'Somebody Else', videoTime: 12.5, color: ' RGB(1, 2, 3) ' }))
      .expect(200);
    const pixel = res.body.res.pixel;
    expect(Object.keys(pixel).sort()).toEqual(
      ['color', 'name', 'pixel_id', 'sessionId', 'time', 'videoTime', 'x', 'y'].sort(),
    );
    expect(pixel).toEqual({
      pixel_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      time: expect.any(String),
      name: h.users.owner.name,
      color: 'rgb(1, 2, 3)',
      x: 0.25,
      y: 0.75,
      sessionId,
      videoTime: 12.5,
    });
    expect(Number.isNaN(Date.parse(pixel.time))).toBe(false);
    expectNoIdentities(h, res.body);
    expect(await listPixels(sessionId)).toEqual([pixel]);
  });

  it('stores a null video time when the client sends none, or sends null', async () => {
    const sessionId = await h.session();
    const none = await addPixel(sessionId);
    const explicit = await addPixel(sessionId, { videoTime: null, color: STREAM_PIXEL_COLOR });
    expect(none.videoTime).toBeNull();
    expect(explicit.videoTime).toBeNull();
    expect(explicit.color).toBe('n/a');
    expect(await listPixels(sessionId)).toEqual([none, explicit]);
  });

  it('accepts the edges 0 and 1 exactly, and hex colours', async () => {
    const sessionId = await h.session();
    const corner = await addPixel(sessionId, { x: 0, y: 1, color: '#A0b1C2', videoTime: 0 });
    expect(corner).toMatchObject({ x: 0, y: 1, color: '#a0b1c2', videoTime: 0 });
  });

  it('lists clicks oldest first, only the session’s, without author e-mails or ids', async () => {
    const sessionId = await h.session();
    const other = await h.session();
    const a = await addPixel(sessionId, { x: 0.1 });
    await addPixel(other, { x: 0.2 });
    const b = await addPixel(sessionId, { x: 0.3 });
    const res = await h.http().get('/getPixels').set(h.as('owner').headers).query({ sessionId }).expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { pixels: [a, b], next: null } });
    expectNoIdentities(h, res.body);
  });

  it('the owner deletes a click; a second delete is 404', async () => {
    const sessionId = await h.session();
    const a = await addPixel(sessionId);
    const b = await addPixel(sessionId);
    const res = await h
      .http()
      .post('/deletePixel')
      .set(h.as('owner').headers)
      .send({ pixelId: a.pixel_id })
      .expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { message: 'Pixel deleted.' } });
    expect(await listPixels(sessionId)).toEqual([b]);
    const again = await h
      .http()
      .post('/deletePixel')
      .set(h.as('owner').headers)
      .send({ pixelId: a.pixel_id })
      .expect(404);
    expect(again.body.res.message).toBe('No such pixel.');
  });
});

describe('pixels: who may do what', () => {
  const ownerOnly: Record<Caller, number> = {
    owner: 200,
    participant: 403,
    outsider: 403,
    otherResearcher: 403,
    anonymous: 401,
  };
  const call = (route: string, caller: Caller, sessionId: string, pixelId: string) => {
    const req = h.http();
    switch (route) {
      case 'getPixels':
        return req.get('/getPixels').set(h.as(caller).headers).query({ sessionId });
      case 'addPixel':
        return req.post('/addPixel').set(h.as(caller).headers).send(click(sessionId));
      default:
        return req.post('/deletePixel').set(h.as(caller).headers).send({ pixelId });
    }
  };

  for (const route of ['getPixels', 'addPixel', 'deletePixel']) {
    for (const caller of Object.keys(ownerOnly) as Caller[]) {
      const status = ownerOnly[caller];
      it(`${route} by ${caller}: ${status}`, async () => {
        const sessionId = await h.session();
        const original = await addPixel(sessionId);
        const res = await call(route, caller, sessionId, original.pixel_id).expect(status);
        if (status !== 200) {
          expect(res.body.status).toBe('ERROR');
          expect(await listPixels(sessionId)).toEqual([original]);
        } else {
          expectNoIdentities(h, res.body);
        }
      });
    }
  }

  it('a participant may not list the clicks even of a session they are in', async () => {
    const sessionId = await h.session({ scope: null });
    const res = await h
      .http()
      .get('/getPixels')
      .set(h.as('participant').headers)
      .query({ sessionId })
      .expect(403);
    expect(res.body.res.message).toBe('Only researchers can do this.');
  });

  it('another researcher is told they do not own the session', async () => {
    const sessionId = await h.session();
    const original = await addPixel(sessionId);
    const res = await h
      .http()
      .post('/deletePixel')
      .set(h.as('otherResearcher').headers)
      .send({ pixelId: original.pixel_id })
      .expect(403);
    expect(res.body.res.message).toBe('Only the researcher who owns this session can do this.');
  });

  it('an unknown session or pixel is 404', async () => {
    const sessionId = randomUUID();
    await h.http().get('/getPixels').set(h.as('owner').headers).query({ sessionId }).expect(404);
    const add = await h
      .http()
      .post('/addPixel')
      .set(h.as('owner').headers)
      .send(click(sessionId))
      .expect(404);
    expect(add.body.res.message).toBe('No such session.');
    await h
      .http()
      .post('/deletePixel')
      .set(h.as('owner').headers)
      .send({ pixelId: randomUUID() })
      .expect(404);
  });
});

describe('pixels: bad input is a 400 that says what is wrong', () => {
  const sessionId = randomUUID();
  const cases: [string, 'GET' | 'POST', string, object, string][] = [
    ['getPixels without sessionId', 'GET', '/getPixels', {}, 'This field must not be empty'],
    ['getPixels with a bad id', 'GET', '/getPixels', { sessionId: 'zz' }, 'sessionId: is not a valid id'],
    [
      'addPixel with x above 1',
      'POST',
      '/addPixel',
      click(sessionId, { x: 1.0001 }),
      'x: must be from 0 to 1',
    ],
    ['addPixel with x below 0', 'POST', '/addPixel', click(sessionId, { x: -0.1 }), 'x: must be from 0 to 1'],
    ['addPixel with y above 1', 'POST', '/addPixel', click(sessionId, { y: 2 }), 'y: must be from 0 to 1'],
    ['addPixel with y below 0', 'POST', '/addPixel', click(sessionId, { y: -1 }), 'y: must be from 0 to 1'],
    [
      'addPixel with x as text',
      'POST',
      '/addPixel',
      click(sessionId, { x: '0.5' }),
      'x: must be a number from 0 to 1',
    ],
    [
      'addPixel without y',
      'POST',
      '/addPixel',
      click(sessionId, { y: undefined }),
      'y: must be a number from 0 to 1',
    ],
    [
      'addPixel with an odd colour',
      'POST',
      '/addPixel',
      click(sessionId, { color: 'blue' }),
      "color: must be rgb(r, g, b), rgba(r, g, b, a), a hex colour or 'n/a'",
    ],
    [
      'addPixel with a colour out of range',
      'POST',
      '/addPixel',
      click(sessionId, { color: 'rgb(300, 0, 0)' }),
      "color: must be rgb(r, g, b), rgba(r, g, b, a), a hex colour or 'n/a'",
    ],
    [
      'addPixel with a negative video time',
      'POST',
      '/addPixel',
      click(sessionId, { videoTime: -1 }),
      'videoTime: must not be negative',
    ],
    [
      'addPixel with a video time as text',
      'POST',
      '/addPixel',
      click(sessionId, { videoTime: '3' }),
      'videoTime: must be a number of seconds',
    ],
    ['addPixel with a bad session id', 'POST', '/addPixel', click('nope'), 'sessionId: is not a valid id'],
    ['deletePixel without pixelId', 'POST', '/deletePixel', {}, 'This field must not be empty'],
    ['deletePixel with a bad id', 'POST', '/deletePixel', { pixelId: 12 }, 'pixelId: is not a valid id'],
  ];

  it.each(cases)('%s', async (_label, method, path, input, message) => {
    const res = await sendInput(h.http(), method, path, input).set(h.as('owner').headers).expect(400);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message, code: 'VALIDATION', issues: expect.any(Array) },
    });
  });

  it('x and y outside 0..1 store nothing', async () => {
    const session = await h.session();
    await h
      .http()
      .post('/addPixel')
      .set(h.as('owner').headers)
      .send(click(session, { x: 1.5 }))
      .expect(400);
    expect(await listPixels(session)).toEqual([]);
  });
});
