import fs from 'node:fs';

/** Bytes per bucket of a heap snapshot: what the heap holds, by constructor. */
export type HeapBuckets = Map<string, number>;

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/**
 * A V8 heap snapshot (`.heapsnapshot`) as self size per bucket: objects by constructor name, and
 * strings, code, closures, arrays and V8's hidden objects each as one bucket (their names are
 * their contents or internals, not what made them).
 */
export function heapBuckets(file: string): HeapBuckets {
  const { snapshot, nodes, strings } = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field)) as [
    number,
    number,
    number,
  ];
  const buckets: HeapBuckets = new Map();
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]!] ?? '?';
    const bucket =
      type === 'object' || type === 'native'
        ? strings[nodes[i + nameAt]!]!
        : type.includes('string')
          ? '(strings)'
          : `(${type})`;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + nodes[i + sizeAt]!);
  }
  return buckets;
}

/** The sum of several processes' buckets (the replicas of one target). */
export function sumBuckets(all: readonly HeapBuckets[]): HeapBuckets {
  const sum: HeapBuckets = new Map();
  for (const buckets of all) for (const [name, bytes] of buckets) sum.set(name, (sum.get(name) ?? 0) + bytes);
  return sum;
}

/** `after` minus `before`, per bucket. */
export function bucketGrowth(before: HeapBuckets, after: HeapBuckets): HeapBuckets {
  const growth: HeapBuckets = new Map();
  for (const name of new Set([...before.keys(), ...after.keys()]))
    growth.set(name, (after.get(name) ?? 0) - (before.get(name) ?? 0));
  return growth;
}
