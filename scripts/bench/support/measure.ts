import fs from 'node:fs';

/** Figures the goals share: quantiles, CPU and memory of processes from /proc (Linux). */

const CLK_TCK = 100;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The q-quantile of ascending `sorted` (nearest rank); NaN for none. */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

export const median = (values: readonly number[]): number =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** How many values there are, their p50, p95 and max (NaN for none). */
export interface Spread {
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted.at(-1) ?? NaN,
  };
}

export const ascending = (values: number[]): number[] => values.sort((a, b) => a - b);

/** `value` with `digits` decimals, without trailing noise ("12.3"). */
export const fixed = (value: number, digits = 1): string =>
  Number.isFinite(value) ? String(Number(value.toFixed(digits))) : 'n/a';

/** `ours / base` as "2.6x". */
export const ratio = (ours: number, base: number): string => `${fixed(ours / base, 2)}x`;

function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / CLK_TCK : 0;
}

/** The process and its descendants (nginx's workers, a shell's program). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (!fields) continue;
    const parent = Number(fields[1]);
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

/** Resident memory of a process in bytes (VmRSS). */
export function rssBytes(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * CPU of a set of processes between `start()` and `stop()`, in seconds. Processes are looked up
 * at each read (a Postgres backend opened during the run counts from when it is first seen).
 */
export function cpuMeter(pids: () => number[]): { stop(): number } {
  const first = new Map(pids().map((pid) => [pid, cpuSeconds(pid)]));
  return {
    stop: () => pids().reduce((sum, pid) => sum + cpuSeconds(pid) - (first.get(pid) ?? 0), 0),
  };
}

/** Runs `work` over `items`, at most `limit` at once, results in order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Rounds in interleaved order (A B B A A B ...), so a shared machine's drift weighs on both alike. */
export function interleaved<T>(a: T, b: T, rounds: number): T[] {
  const order: T[] = [];
  for (let round = 0; round < rounds; round += 1) order.push(...(round % 2 === 0 ? [a, b] : [b, a]));
  return order;
}
