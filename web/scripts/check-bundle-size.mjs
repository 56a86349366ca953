#!/usr/bin/env node
// The login route's JavaScript budget (P10 of docs/benchmarks.md): the gzip size of the entry chunk and every
// chunk it imports statically, read from Vite's build manifest. Dynamic imports (the lazy screens, the
// query library, the toasts, the icon list) are left out: the login page does not wait for them.
// Run after `vite build`; fails above the budget. With BENCH_RESULT=<file>, also writes the figures
// and the entry's static closure (manifest keys) there as JSON, for `npm run bench`'s suite (goal P10).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// kB = 1000 bytes, as Vite's build report counts them.
const BUDGET_KB = 90;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifestFile = path.join(dist, '.vite', 'manifest.json');

/** @typedef {{ file: string, isEntry?: boolean, imports?: string[] }} Chunk */

/**
 * What the entry loads before anything else: the entry chunk and its static imports, transitively, as
 * manifest keys and as JavaScript files.
 */
function staticClosure(/** @type {Record<string, Chunk>} */ manifest) {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in ${manifestFile}, found ${entries.length}`);
  const files = new Set();
  const keys = [];
  const visit = (/** @type {string} */ key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${manifestFile} names ${key} as an import but has no such chunk`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    keys.push(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(/** @type {string} */ (entries[0]));
  return { keys, files: [...files].filter((file) => file.endsWith('.js')) };
}

let manifest;
try {
  manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
} catch (error) {
  console.error(
    `check-bundle-size: cannot read ${manifestFile} (run vite build with build.manifest): ${error}`,
  );
  process.exit(1);
}

const closure = staticClosure(manifest);
const sizes = closure.files.map((file) => ({
  file,
  gzip: gzipSync(readFileSync(path.join(dist, file))).length,
}));
const totalKb = sizes.reduce((sum, { gzip }) => sum + gzip, 0) / 1000;
const detail = sizes.map(({ file, gzip }) => `${file} ${(gzip / 1000).toFixed(1)} kB`).join(', ');
const line = `login route JS: ${totalKb.toFixed(1)} kB gzip (budget ${BUDGET_KB} kB): ${detail}`;
if (process.env.BENCH_RESULT) {
  const result = { budgetKb: BUDGET_KB, totalKb, files: sizes, closureKeys: closure.keys };
  writeFileSync(process.env.BENCH_RESULT, JSON.stringify(result));
}
if (totalKb > BUDGET_KB) {
  console.error(`check-bundle-size: over budget: ${line}`);
  process.exit(1);
}
console.log(`check-bundle-size: ${line}`);
