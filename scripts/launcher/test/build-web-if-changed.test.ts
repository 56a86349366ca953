import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  INPUTS_HASH_FILE,
  WEB_BUILD_INPUTS,
  buildIfChanged,
  hashInputs,
  webBuildState,
} from '../src/build-web-if-changed';
import { repoRoot } from '../src/data-dir';

describe('building the web app only when its inputs changed', () => {
  const inputs = ['web/src', 'web/index.html', 'package-lock.json', 'web/public'];
  let root: string;
  let outputDir: string;
  let builds: number;
  let lines: string[];

  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  };
  /** A stand-in for vite: empties the output, then writes an index.html. */
  const fakeBuild = () => {
    builds += 1;
    fs.rmSync(outputDir, { recursive: true, force: true });
    fs.mkdirSync(outputDir, { recursive: true });
    fs.writeFileSync(path.join(outputDir, 'index.html'), `<html>build ${builds}</html>`);
  };
  const start = () =>
    buildIfChanged({ root, inputs, outputDir, build: fakeBuild, log: (line) => lines.push(line) });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-web-inputs-'));
    outputDir = path.join(root, 'web', 'dist');
    builds = 0;
    lines = [];
    write('web/src/main.tsx', 'render(<App />);');
    write('web/src/pages/home.tsx', 'export const Home = () => null;');
    write('web/index.html', '<div id="root"></div>');
    write('package-lock.json', '{}');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds when there is no build yet, and records the hash of the inputs beside it', () => {
    expect(start()).toBe('built');
    expect(lines).toEqual(['building the web app: no build yet']);
    expect(fs.readFileSync(path.join(outputDir, INPUTS_HASH_FILE), 'utf8').trim()).toBe(
      hashInputs(root, inputs),
    );
  });

  it('skips the build when nothing changed', () => {
    start();
    lines = [];
    expect(start()).toBe('skipped');
    expect(start()).toBe('skipped');
    expect(builds).toBe(1);
    expect(lines).toEqual(['web app up to date', 'web app up to date']);
  });

  it('builds again when a file changes, is added, is removed or is renamed', () => {
    const changes = [
      () => write('web/src/pages/home.tsx', 'export const Home = () => <p>hi</p>;'),
      () => write('web/src/pages/about.tsx', 'export const About = () => null;'),
      () => fs.rmSync(path.join(root, 'web/src/pages/about.tsx')),
      () => fs.renameSync(path.join(root, 'web/src/main.tsx'), path.join(root, 'web/src/index.tsx')),
      () => write('web/public/favicon.svg', '<svg/>'),
      () => write('package-lock.json', '{"lockfileVersion":3}'),
    ];
    start();
    for (const change of changes) {
      change();
      lines = [];
      expect(start()).toBe('built');
      expect(lines).toEqual(['building the web app: inputs changed']);
      expect(start()).toBe('skipped');
    }
    expect(builds).toBe(1 + changes.length);
  });

  it('does not build for a touched file whose content is the same', () => {
    start();
    const file = path.join(root, 'web/src/main.tsx');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
    expect(start()).toBe('skipped');
  });

  it('builds when the output is gone or was built without a record (npm run build)', () => {
    start();
    fs.rmSync(path.join(outputDir, 'index.html'));
    expect(start()).toBe('built');
    fakeBuild();
    lines = [];
    expect(start()).toBe('built');
    expect(lines).toEqual(['building the web app: no record of what the last build read']);
    expect(builds).toBe(4);
  });

  it('always builds for npm run build (--always), and records the inputs so the next start skips', () => {
    start();
    lines = [];
    const full = () =>
      buildIfChanged({
        root,
        inputs,
        outputDir,
        build: fakeBuild,
        log: (line) => lines.push(line),
        always: true,
      });
    expect(full()).toBe('built');
    expect(builds).toBe(2);
    expect(start()).toBe('skipped');
    expect(lines).toEqual(['building the web app: a full build was asked for', 'web app up to date']);
  });

  it('records nothing when the build fails, so the next start tries again', () => {
    write('web/src/broken.tsx', 'export const = ;');
    const failing = () => {
      fs.rmSync(outputDir, { recursive: true, force: true });
      fs.mkdirSync(outputDir, { recursive: true });
      fs.writeFileSync(path.join(outputDir, 'index.html'), 'half written');
      throw new Error('vite failed');
    };
    expect(() => buildIfChanged({ root, inputs, outputDir, build: failing, log: () => undefined })).toThrow(
      'vite failed',
    );
    expect(webBuildState(outputDir, hashInputs(root, inputs))).toEqual({
      upToDate: false,
      reason: 'no record of what the last build read',
    });
  });

  it('names inputs that exist in this repository (a typo would never trigger a build)', () => {
    const missing = WEB_BUILD_INPUTS.filter(
      (input) => input !== 'web/public' && !fs.existsSync(path.join(repoRoot(), input)),
    );
    expect(missing).toEqual([]);
  });
});
