import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claimDataDir, dataDir, loadOrCreateSecrets, readSecrets, repoRoot } from '../src/data-dir';

describe('the data directory', () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-data-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lives at the repository root, found from the package, not the working directory', () => {
    const previous = process.env.UIS_DATA_DIR;
    delete process.env.UIS_DATA_DIR;
    try {
      expect(fs.existsSync(path.join(repoRoot(), 'scripts', 'package.json'))).toBe(true);
      expect(dataDir()).toBe(path.join(repoRoot(), '.data'));
    } finally {
      if (previous !== undefined) process.env.UIS_DATA_DIR = previous;
    }
  });

  it('creates the secrets once, owner-only, and keeps them across restarts', () => {
    const file = path.join(root, 'secrets.json');
    expect(readSecrets(file)).toBeUndefined();
    const first = loadOrCreateSecrets(file);
    expect(first.JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.SERVICE_TOKEN).toMatch(/^[0-9a-f]{64}$/);
    expect(first.SERVICE_TOKEN).not.toBe(first.JWT_SECRET);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecrets(file)).toEqual(first);
    expect(readSecrets(file)).toEqual(first);
  });

  it('refuses a data directory a live `npm start` holds, and takes over a dead one’s', async () => {
    const lock = path.join(root, 'start.pid');
    const holder = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'hold-data-dir.js'), lock], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise((resolve, reject) => {
        holder.stdout.once('data', resolve);
        holder.once('exit', (code) =>
          reject(new Error(`the lock holder exited (${code}) before taking the lock`)),
        );
      });
      expect(() => claimDataDir(lock)).toThrow(`Another \`npm start\` (pid ${holder.pid}) is using ${root}.`);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    // Killed without releasing: its lock is stale now.
    expect(fs.readFileSync(lock, 'utf8')).toContain(String(holder.pid));
    const claim = claimDataDir(lock);
    expect(fs.readFileSync(lock, 'utf8').split('\n')[0]).toBe(String(process.pid));
    claim.release();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('ignores a lock whose pid now belongs to an unrelated process', () => {
    const lock = path.join(root, 'start.pid');
    fs.writeFileSync(lock, `${process.ppid}\n/somewhere/else/start.js\n`);
    claimDataDir(lock).release();
  });
});
