import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../launcher/src/data-dir';

/** The services a live-chat benchmark runs (each as `node services/<name>/dist/src/main.js`). */
const BUILT = ['services/studies', 'services/records', 'services/realtime'];
const REPO = repoRoot();

/**
 * A built copy of the services at a git commit, for a benchmark to run beside the working tree's
 * build (interleaved rounds, so drift of a shared machine weighs on both alike). The sources come
 * from `git archive` (read-only for the repository: no checkout, no stash, no worktree); packages are
 * the working tree's installed ones, linked, except the workspaces (@uis/*), which point into the
 * copy. Built once per commit under the OS temp directory. Answers the copy's root.
 */
export function baselineBuild(ref: string): { root: string; commit: string } {
  const git = (...args: string[]) => execFileSync('git', ['-C', REPO, ...args], { encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const root = path.join(os.tmpdir(), `uis-baseline-${commit.slice(0, 12)}`);
  const done = path.join(root, '.built');
  if (fs.existsSync(done)) return { root, commit };

  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const tar = path.join(root, 'sources.tar');
  git(
    'archive',
    '--format=tar',
    `--output=${tar}`,
    commit,
    'package.json',
    'tsconfig.base.json',
    'proto',
    'services',
  );
  execFileSync('tar', ['-x', '-f', tar, '-C', root]);
  fs.rmSync(tar);

  const modules = path.join(REPO, 'node_modules');
  const linked = path.join(root, 'node_modules');
  fs.mkdirSync(linked);
  for (const entry of fs.readdirSync(modules)) {
    if (entry === '@uis') continue;
    fs.symlinkSync(path.join(modules, entry), path.join(linked, entry));
  }
  // The workspace links are relative (../../services/kit): the same links resolve inside the copy.
  fs.mkdirSync(path.join(linked, '@uis'));
  for (const entry of fs.readdirSync(path.join(modules, '@uis'))) {
    const target = fs.readlinkSync(path.join(modules, '@uis', entry));
    fs.symlinkSync(target, path.join(linked, '@uis', entry));
  }

  const tsc = path.join(REPO, 'node_modules/.bin/tsc');
  execFileSync(tsc, ['-b', ...BUILT.map((dir) => path.join(root, dir))], { stdio: 'inherit' });
  fs.writeFileSync(done, `${commit}\n`);
  return { root, commit };
}
