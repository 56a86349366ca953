import { signAccessToken } from '@uis/kit';
import {
  createTestDatabase,
  describeServiceBasics,
  freePort,
  testSecrets,
  testUser,
  type TestDatabase,
} from '@uis/kit/testing';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { recordsService } from '../src';

// describeServiceBasics reads the env when its tests run, so the database can be made in beforeAll.
const env: NodeJS.ProcessEnv = {};
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('records_basics');
  env.DATABASE_URL = db.url;
});
afterAll(() => db.drop());

describeServiceBasics(recordsService, env);

describe('records configuration and dependencies', () => {
  it('refuses to start without DATABASE_URL, naming it', async () => {
    await expect(
      recordsService.createApp({
        JWT_SECRET: 'j'.repeat(40),
        SERVICE_TOKEN: 's'.repeat(40),
        LOG_LEVEL: 'silent',
      }),
    ).rejects.toThrow(/DATABASE_URL/);
  });

  it('refuses an export page size out of range', async () => {
    await expect(
      recordsService.createApp({ ...testSecrets(), DATABASE_URL: db.url, EXPORT_PAGE_ROWS: '0' }),
    ).rejects.toThrow(/EXPORT_PAGE_ROWS/);
  });

  it('answers 503, not 500, when studies cannot be reached, and stores nothing', async () => {
    const secrets = testSecrets();
    const app = await recordsService.createApp({
      ...secrets,
      DATABASE_URL: db.url,
      STUDIES_URL: `http://127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'silent',
    });
    try {
      const user = testUser('researcher', { email: 'olga@lab.test', name: 'Olga' });
      const auth = { authorization: `Bearer ${signAccessToken(secrets.JWT_SECRET, user, 60)}` };
      const sessionId = randomUUID();
      const res = await request(app.getHttpServer())
        .post('/addMessage')
        .set(auth)
        .send({ sessionId, message: 'hello' })
        .expect(503);
      expect(res.body.status).toBe('ERROR');
      expect(res.body.res.message).toMatch(/^studies did not answer/);
      const list = await request(app.getHttpServer())
        .get('/internal/records/messages')
        .set('x-service-token', secrets.SERVICE_TOKEN)
        .query({ sessionId })
        .expect(200);
      expect(list.body.res.messages).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
