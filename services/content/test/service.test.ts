import { ConfigError } from '@uis/kit';
import { createTestDatabase, describeServiceBasics, testSecrets, type TestDatabase } from '@uis/kit/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { contentEnv, contentService } from '../src';
import { CONTENT_MIGRATIONS } from '../src/content.module';
import { startS3, type TestS3 } from './content-harness';

/** Filled in beforeAll: describeServiceBasics reads it when its tests run. */
const env: Record<string, string> = {};
let db: TestDatabase;
let s3: TestS3;

beforeAll(async () => {
  [db, s3] = await Promise.all([createTestDatabase('content_service'), startS3()]);
  Object.assign(env, {
    DATABASE_URL: db.url,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
  });
});
afterAll(async () => {
  await s3.close();
  await db.drop();
});

describeServiceBasics(contentService, env);

describe('content configuration', () => {
  const s3Env = {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    S3_ENDPOINT: 'http://127.0.0.1:9569',
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
  };

  it('defaults the bucket, region, size limit (2 GiB), quota (20 GiB) and upload limits (2 each, 8 in all)', () => {
    const config = contentEnv.parse({ ...testSecrets(), ...s3Env });
    expect(config).toMatchObject({
      S3_BUCKET: 'uis-videos',
      S3_REGION: 'us-east-1',
      VIDEO_MAX_BYTES: 2 * 1024 * 1024 * 1024,
      VIDEO_QUOTA_BYTES: 20 * 1024 * 1024 * 1024,
      UPLOADS_PER_USER: 2,
      UPLOADS_MAX: 8,
    });
    expect(
      contentEnv.parse({
        ...testSecrets(),
        ...s3Env,
        VIDEO_QUOTA_BYTES: '5000',
        UPLOADS_PER_USER: '1',
        UPLOADS_MAX: '3',
      }),
    ).toMatchObject({ VIDEO_QUOTA_BYTES: 5000, UPLOADS_PER_USER: 1, UPLOADS_MAX: 3 });
    expect(contentEnv.parse({ ...testSecrets(), ...s3Env, VIDEO_MAX_BYTES: '1000' }).VIDEO_MAX_BYTES).toBe(
      1000,
    );
  });

  it('refuses to start without the object store, naming each variable', async () => {
    const started = contentService.createApp({
      ...testSecrets(),
      DATABASE_URL: s3Env.DATABASE_URL,
      LOG_LEVEL: 'silent',
    });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/S3_ENDPOINT[\s\S]*S3_ACCESS_KEY[\s\S]*S3_SECRET_KEY/);
  });

  it.each([
    ['S3_ENDPOINT', 'ftp://store', /S3_ENDPOINT: must be an http/],
    ['S3_BUCKET', 'Not_A_Bucket', /S3_BUCKET: must be an S3 bucket name/],
    ['VIDEO_MAX_BYTES', 'lots', /VIDEO_MAX_BYTES: must be a number of bytes/],
    ['VIDEO_MAX_BYTES', '0', /VIDEO_MAX_BYTES: must be positive/],
    ['VIDEO_MAX_BYTES', String(6 * 1024 ** 3), /VIDEO_MAX_BYTES: must be at most 5 GiB/],
    ['VIDEO_QUOTA_BYTES', '20GB', /VIDEO_QUOTA_BYTES: must be a number of bytes/],
    ['VIDEO_QUOTA_BYTES', '-1', /VIDEO_QUOTA_BYTES: must be positive/],
    ['VIDEO_QUOTA_BYTES', '1.5', /VIDEO_QUOTA_BYTES: must be a whole number of bytes/],
    ['UPLOADS_PER_USER', 'two', /UPLOADS_PER_USER: must be a number of uploads/],
    ['UPLOADS_PER_USER', '0', /UPLOADS_PER_USER: must be at least 1/],
    ['UPLOADS_MAX', '2.5', /UPLOADS_MAX: must be a whole number/],
    ['UPLOADS_MAX', '0', /UPLOADS_MAX: must be at least 1/],
  ])('refuses %s=%s with a message', async (name, value, message) => {
    const started = contentService.createApp({
      ...testSecrets(),
      ...s3Env,
      [name]: value,
      LOG_LEVEL: 'silent',
    });
    await expect(started).rejects.toThrow(message);
  });
});

describe('content start-up', () => {
  it('creates its bucket when missing, and /ready fails while the object store is down', async () => {
    const secrets = testSecrets();
    const app = await contentService.createApp({
      ...secrets,
      ...env,
      S3_BUCKET: 'made-at-start',
      LOG_LEVEL: 'silent',
    });
    try {
      await request(app.getHttpServer()).get('/ready').expect(200);
      const listing = await fetch(`${s3.endpoint}/`).then((res) => res.text());
      expect(listing).toContain('<Name>made-at-start</Name>');
    } finally {
      await app.close();
    }

    // Nothing listens on port 9 of loopback: the service still starts and says why it is not ready.
    const down = await contentService.createApp({
      ...secrets,
      ...env,
      S3_ENDPOINT: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
    });
    try {
      const ready = await request(down.getHttpServer()).get('/ready').expect(503);
      expect(ready.body.res.message).toMatch(/object store/);
    } finally {
      await down.close();
    }
  });

  it('migrates down and up again', async () => {
    const migrated = await contentService.createApp({ ...testSecrets(), ...env, LOG_LEVEL: 'silent' });
    await migrated.close();
    const dataSource = await new DataSource({
      type: 'postgres',
      url: db.url,
      schema: 'content',
      migrations: CONTENT_MIGRATIONS,
      migrationsTableName: 'migrations',
      extra: { options: '-c search_path="content"' },
    }).initialize();
    try {
      const tables = () =>
        dataSource
          .query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'content' ORDER BY 1`)
          .then((rows: { table_name: string }[]) => rows.map((row) => row.table_name));
      const videoColumns = () =>
        dataSource
          .query(
            `SELECT column_name FROM information_schema.columns WHERE table_schema = 'content' AND table_name = 'videos'`,
          )
          .then((rows: { column_name: string }[]) => rows.map((row) => row.column_name));
      expect(await tables()).toEqual(['actions', 'migrations', 'prompts', 'videos']);
      expect(await videoColumns()).toContain('owner_id');
      await dataSource.undoLastMigration();
      expect(await videoColumns()).not.toContain('owner_id');
      await dataSource.undoLastMigration();
      expect(await tables()).toEqual(['migrations']);
      await dataSource.runMigrations();
      expect(await tables()).toEqual(['actions', 'migrations', 'prompts', 'videos']);
      expect(await videoColumns()).toContain('owner_id');
    } finally {
      await dataSource.destroy();
    }
  });
});
