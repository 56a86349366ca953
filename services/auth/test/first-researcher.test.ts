import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { bearer, freePort } from '@uis/kit/testing';
import { RESEARCHER_NOT_GRANTED } from '../src/sign-in/sign-in.service';
import { startAuth, type AuthHarness } from './auth-harness';

/**
 * A new deployment: RESEARCHER_EMAILS is empty (the default outside `npm start`), so nobody signs up
 * as a researcher by themselves. The refusal says who grants it; the image's promote command
 * (`docker compose run --rm auth node dist/src/promote.js <email>`, k8s/jobs/promote-researcher.yaml)
 * makes the first one.
 */

const AUTH_DIR = path.join(__dirname, '..');

/** `node dist/src/promote.js ...` from auth's folder, as the image runs it (the build, brought up to date). */
function promote(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['dist/src/promote.js', ...args], {
      cwd: AUTH_DIR,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the first researcher of a deployment', () => {
  let h: AuthHarness;
  const email = 'ada@uni.test';

  beforeAll(async () => {
    const tsc = path.join(AUTH_DIR, '..', '..', 'node_modules', '.bin', 'tsc');
    const build = spawnSync(tsc, ['-b', AUTH_DIR], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`tsc -b services/auth failed:\n${build.stdout}${build.stderr}`);
    h = await startAuth('first_researcher', { RESEARCHER_EMAILS: '' });
  }, 180_000);
  afterAll(() => h?.close());

  const typeOf = async (address: string) => {
    const token = (await h.mailedLink(address)).searchParams.get('token')!;
    const pair = await h.http().get('/getUserTokens').query({ email: address, token }).expect(200);
    const me = await h.http().get('/getUserFromToken').set(bearer(pair.body.res.accessToken)).expect(200);
    return me.body.res.user.type as string;
  };

  it('refuses the researcher sign-up saying who grants it, and keeps the link for a participant sign-up', async () => {
    const token = (await h.mailedLink(email)).searchParams.get('token')!;
    const refused = await h
      .http()
      .post('/setNewUser')
      .send({ email, name: 'Ada', type: 'researcher', token })
      .expect(403);
    expect(refused.body).toEqual({
      status: 'ERROR',
      res: { message: RESEARCHER_NOT_GRANTED, code: 'FORBIDDEN' },
    });
    expect(RESEARCHER_NOT_GRANTED).toMatch(/granted by its administrators/);
    await h.http().post('/setNewUser').send({ email, name: 'Ada', type: 'participant', token }).expect(200);
    expect(await typeOf(email)).toBe('participant');
  });

  it("makes that account a researcher with the image's promote command; running it again changes nothing", async () => {
    const env = { DATABASE_URL: h.db.url };
    expect(await promote([email], env)).toEqual({
      code: 0,
      stdout: `${email} is now a researcher (they see the dashboard at their next sign-in).\n`,
      stderr: '',
    });
    expect(await typeOf(email)).toBe('researcher');
    expect(await promote([email], env)).toEqual({
      code: 0,
      stdout: `${email} already is a researcher.\n`,
      stderr: '',
    });
  });

  it('says in one line what is wrong, with no stack trace', async () => {
    const env = { DATABASE_URL: h.db.url };
    expect(await promote(['grace@uni.test'], env)).toMatchObject({
      code: 1,
      stderr:
        'No account has the e-mail grace@uni.test yet: they sign up first (as a participant), then run this again.\n',
    });
    expect(await promote(['not-an-email'], env)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^"not-an-email" is not a valid e-mail address\.\nUsage: /),
    });
    expect(await promote([], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Usage: /) });
    expect(await promote([email], {})).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^DATABASE_URL is not set\.\nUsage: /),
    });
    const port = await freePort();
    expect(await promote([email], { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/uis` })).toEqual({
      code: 1,
      stdout: '',
      stderr: `promote failed: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    });
  });
});
