import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './data-dir';

/**
 * `npm start`'s web step: build the web app only when what the build reads differs from what the
 * last build read. `tsc -b` before it is left alone: it is incremental already and a no-op run takes
 * a quarter of a second, while the web build (type check, vite, bundle budget) takes ten or more.
 * `npm run build` keeps building always (CI, Docker).
 */

/** What the web build reads, relative to the repository root: folders (walked) and files. */
export const WEB_BUILD_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/tsconfig.json',
  'web/package.json',
  'web/scripts',
  // The app bundles proto's sources; vite.config.ts reads proto's build of the same sources.
  'proto/src',
  'proto/package.json',
  // Stands for node_modules: a changed dependency changes the lock.
  'package-lock.json',
] as const;

/** Beside the build's output, so deleting the output (or a build, which empties it) forgets it too. */
export const INPUTS_HASH_FILE = '.inputs-hash';

/** Every file under `input` (a file or a folder; missing ones count as empty), as posix paths from `root`. */
function filesOf(root: string, input: string): string[] {
  const full = path.join(root, input);
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [input.split(path.sep).join('/')];
  return fs
    .readdirSync(full)
    .flatMap((entry) => filesOf(root, path.join(input, entry)))
    .sort();
}

/** One hash over the paths and contents of the inputs: a renamed, added or removed file changes it too. */
export function hashInputs(root: string, inputs: readonly string[]): string {
  const files = [...new Set(inputs.flatMap((input) => filesOf(root, input)))].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const content = createHash('sha256')
      .update(fs.readFileSync(path.join(root, file)))
      .digest('hex');
    hash.update(`${file}\0${content}\n`);
  }
  return hash.digest('hex');
}

export type WebBuildState = { upToDate: true } | { upToDate: false; reason: string };

/** Whether `outputDir` holds a build of inputs hashing to `inputsHash`. */
export function webBuildState(outputDir: string, inputsHash: string): WebBuildState {
  if (!fs.existsSync(path.join(outputDir, 'index.html'))) return { upToDate: false, reason: 'no build yet' };
  const record = path.join(outputDir, INPUTS_HASH_FILE);
  // `npm run build` empties the output and writes no record: its build counts as of unknown inputs.
  if (!fs.existsSync(record)) return { upToDate: false, reason: 'no record of what the last build read' };
  if (fs.readFileSync(record, 'utf8').trim() !== inputsHash)
    return { upToDate: false, reason: 'inputs changed' };
  return { upToDate: true };
}

export interface BuildIfChangedOptions {
  root: string;
  inputs: readonly string[];
  outputDir: string;
  /** Builds into outputDir; throws when the build fails (nothing is recorded then). */
  build: () => void;
  log: (line: string) => void;
  /** Build whatever the record says (`npm run build`), still recording the inputs for the next start. */
  always?: boolean;
}

/** Builds when the inputs changed or the output is missing, then records the inputs' hash. */
export function buildIfChanged({
  root,
  inputs,
  outputDir,
  build,
  log,
  always = false,
}: BuildIfChangedOptions): 'skipped' | 'built' {
  // Hashed before building: a file saved during the build leaves an old hash, so the next start builds again.
  const inputsHash = hashInputs(root, inputs);
  const state: WebBuildState = always
    ? { upToDate: false, reason: 'a full build was asked for' }
    : webBuildState(outputDir, inputsHash);
  if (state.upToDate) {
    log('web app up to date');
    return 'skipped';
  }
  log(`building the web app: ${state.reason}`);
  build();
  fs.writeFileSync(path.join(outputDir, INPUTS_HASH_FILE), `${inputsHash}\n`);
  return 'built';
}

if (require.main === module) {
  const root = repoRoot();
  try {
    buildIfChanged({
      // `--always`: `npm run build`, which must build, and leaves the record so `npm start` need not.
      always: process.argv.includes('--always'),
      root,
      inputs: WEB_BUILD_INPUTS,
      outputDir: path.join(root, 'web', 'dist'),
      build: () => {
        const { status, error } = spawnSync('npm', ['run', 'build', '-w', 'web'], {
          cwd: root,
          stdio: 'inherit',
        });
        if (error) throw error;
        if (status !== 0) throw new Error(`npm run build -w web exited with ${status}`);
      },
      log: (line) => console.log(`[web] ${line}`),
    });
  } catch (error) {
    console.error(`[web] the build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
