import { createTestDatabase, describeServiceBasics, type TestDatabase } from '@uis/kit/testing';
import { studiesService } from '../src';

// describeServiceBasics reads the env when its tests run, so the database can be made first.
const env: NodeJS.ProcessEnv = {};
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('studies_basics');
  env.DATABASE_URL = db.url;
});
afterAll(() => db.drop());

describeServiceBasics(studiesService, env);
