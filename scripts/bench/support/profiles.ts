import fs from 'node:fs';
import path from 'node:path';
import { PROFILE_PRELOAD, addProfile, emptyTotals, waitFor, type BucketTotals } from '@uis/kit/testing';
import { heapBuckets, sumBuckets, type HeapBuckets } from './heap-summary';
import { fixed } from './measure';

/** process.memoryUsage()'s figures a heap comparison reads (bytes). */
export interface MemoryFigures {
  heapUsed: number;
  /** The heap V8 keeps reserved: what resident memory holds of it, used or not. */
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

/**
 * CPU profiles of a stack's services around one phase of a benchmark (the preload in every service,
 * started and stopped by SIGWINCH), summarised as self time per bucket (logging, Nest + Express,
 * pg, socket.io, our code...): the profile that shows what limits a missed goal.
 */
export class StackProfiler {
  private taken = 0;

  /** Where profiles and heap snapshots are written (a process outside the stack: HEAP_SNAPSHOT_DIR). */
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** The environment that makes every service of a stack profilable. */
  env(): Record<string, string> {
    return { NODE_OPTIONS: `--require=${PROFILE_PRELOAD}`, CPU_PROFILE_DIR: this.dir };
  }

  /**
   * A heap snapshot of each of `pids` (the preload's SIGCONT), summarised and summed: what their
   * heaps hold by constructor, and their memoryUsage() (the heap, and what lives outside it).
   */
  async heaps(pids: readonly number[]): Promise<{ buckets: HeapBuckets; usage: MemoryFigures }> {
    const written = (pid: number) =>
      fs
        .readdirSync(this.dir)
        .filter((name) => name.includes(`-${pid}-`) && name.endsWith('.heapsnapshot.done'));
    const buckets: HeapBuckets[] = [];
    const usage: MemoryFigures = { heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0, rss: 0 };
    for (const pid of pids) {
      const before = written(pid).length;
      process.kill(pid, 'SIGCONT');
      await waitFor(() => written(pid).length > before, `the heap snapshot of ${pid}`, 120_000);
      const done = path.join(
        this.dir,
        written(pid).find((name) => name.endsWith(`-${before + 1}.heapsnapshot.done`))!,
      );
      const snapshot = done.replace(/\.done$/, '');
      buckets.push(heapBuckets(snapshot));
      fs.rmSync(snapshot);
      const figures = JSON.parse(fs.readFileSync(done, 'utf8')) as MemoryFigures;
      for (const key of Object.keys(usage) as (keyof MemoryFigures)[]) usage[key] += figures[key];
    }
    return { buckets: sumBuckets(buckets), usage };
  }

  /** Profiles `services` (label and pid; never nginx, for which SIGWINCH means stop) during `phase`. */
  async around<T>(
    services: { label: string; pid: number }[],
    phase: () => Promise<T>,
  ): Promise<{ result: T; table: string }> {
    const signal = () => services.forEach(({ pid }) => process.kill(pid, 'SIGWINCH'));
    this.taken += 1;
    signal();
    const result = await phase();
    signal();
    const totals = new Map<string, BucketTotals>();
    for (const { label, pid } of services) {
      // The preload names a profile by the service's folder (realtime for realtime-1), pid and count.
      const service = label.replace(/-\d+$/, '');
      const file = path.join(this.dir, `${service}-${pid}-${this.taken}.cpuprofile`);
      await waitFor(() => fs.existsSync(`${file}.done`), `the profile of ${label}`, 60_000);
      const into = totals.get(service) ?? emptyTotals();
      if (fs.existsSync(file)) addProfile(file, into);
      totals.set(service, into);
    }
    return { result, table: bucketTable(totals) };
  }
}

/** Per service: busy time and the buckets that took at least 3% of it. */
function bucketTable(totals: Map<string, BucketTotals>): string {
  const lines = ['| service | busy s | where the busy time went (self time, share) |', '|---|---|---|'];
  for (const [service, { ms, busyMs }] of totals) {
    const top = [...ms.entries()]
      .sort((a, b) => b[1] - a[1])
      .filter(([, bucket]) => bucket / busyMs >= 0.03)
      .map(([name, bucket]) => `${name} ${fixed((100 * bucket) / busyMs, 0)}%`);
    lines.push(`| ${service} | ${fixed(busyMs / 1000, 2)} | ${top.join('; ')} |`);
  }
  return lines.join('\n');
}
