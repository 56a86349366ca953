/**
 * Preloaded into a benchmarked service (`node -r <PROFILE_PRELOAD> main.js`): SIGWINCH starts V8's
 * CPU profiler, the next SIGWINCH stops it and writes the profile to
 * `${CPU_PROFILE_PREFIX}-<n>.cpuprofile` (then `.done` beside it), so only the measured rounds are
 * profiled, not the start-up or the clients joining. Nothing else changes in the process. (SIGWINCH,
 * as Nest's shutdown hooks take SIGUSR2 and the inspector SIGUSR1.) With CPU_PROFILE_DIR instead,
 * processes sharing one environment (a stack) write `<dir>/<service>-<pid>-<n>.cpuprofile`.
 * SIGURG (ignored by a process without the preload) runs a full garbage collection. SIGCONT (a no-op
 * for a running process without it) writes a heap snapshot, `<prefix>-<n>.heapsnapshot` (or
 * `<HEAP_SNAPSHOT_DIR>/<service>-<pid>-<n>.heapsnapshot`), and beside it `.done` holding
 * process.memoryUsage() as JSON: what the heap holds, and what lives outside it.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';

/** services/<name>/dist/src/main.js: <name>. */
const service = /services\/([^/]+)\/dist\//.exec(process.argv[1] ?? '')?.[1] ?? 'node';
const inDir = (dir: string | undefined) => (dir ? path.join(dir, `${service}-${process.pid}`) : undefined);
const prefix = process.env.CPU_PROFILE_PREFIX ?? inDir(process.env.CPU_PROFILE_DIR);
const heapPrefix =
  process.env.CPU_PROFILE_PREFIX ?? inDir(process.env.HEAP_SNAPSHOT_DIR ?? process.env.CPU_PROFILE_DIR);
let session: Session | undefined;
const inspector = (): Session => {
  if (!session) {
    session = new Session();
    session.connect();
  }
  return session;
};

// SIGURG: a full garbage collection, so that memory read next is what is kept, not what awaits collection.
process.on('SIGURG', () => inspector().post('HeapProfiler.collectGarbage'));

if (heapPrefix) {
  let snapshots = 0;
  process.on('SIGCONT', () => {
    snapshots += 1;
    // writeHeapSnapshot collects garbage first: the snapshot holds what is kept.
    const file = v8.writeHeapSnapshot(`${heapPrefix}-${snapshots}.heapsnapshot`);
    fs.writeFileSync(`${file}.done`, JSON.stringify(process.memoryUsage()));
  });
}

if (prefix) {
  let running = false;
  let count = 0;
  process.on('SIGWINCH', () => {
    const profiler = inspector();
    if (!running) {
      running = true;
      profiler.post('Profiler.enable', () =>
        profiler.post('Profiler.setSamplingInterval', { interval: 500 }, () =>
          profiler.post('Profiler.start'),
        ),
      );
      return;
    }
    running = false;
    profiler.post('Profiler.stop', (error, result) => {
      count += 1;
      const file = `${prefix}-${count}.cpuprofile`;
      if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
      fs.writeFileSync(`${file}.done`, error ? String(error) : 'ok');
    });
  });
}
