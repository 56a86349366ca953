import fs from 'node:fs';

/** What a V8 `.cpuprofile` holds (the parts read here). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a sample's own (self) time went, from the script that was running. */
const BUCKETS: [name: string, test: RegExp][] = [
  [
    'logging (pino, pino-http)',
    /node_modules\/(pino|pino-http|pino-std-serializers|sonic-boom|fast-redact|quick-format-unescaped|on-exit-leak-free|thread-stream)\//,
  ],
  [
    'Nest + Express',
    /node_modules\/(@nestjs|express|router|body-parser|raw-body|path-to-regexp|rxjs|finalhandler|on-finished|type-is|content-type|iconv-lite|qs|send|serve-static|accepts|negotiator|mime-types|media-typer|depd|cors|vary|proxy-addr|forwarded|ipaddr\.js|cookie|etag|fresh|range-parser|statuses|http-errors|encodeurl|escape-html|parseurl|utils-merge|merge-descriptors|methods|setprototypeof)\//,
  ],
  ['TypeORM', /node_modules\/typeorm\//],
  [
    'pg (driver)',
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-array|postgres-date|postgres-interval|postgres-bytea|pgpass|buffer-writer|packet-reader)\//,
  ],
  [
    'socket.io + ws',
    /node_modules\/(socket\.io|socket\.io-adapter|socket\.io-parser|engine\.io|engine\.io-parser|ws|@socket\.io)\//,
  ],
  ['zod', /node_modules\/zod\//],
  ['prom-client (metrics)', /node_modules\/(prom-client|tdigest|bintrees)\//],
  // fetch is undici over web streams, with an AbortSignal for its timeout and a URL per call.
  [
    'fetch (the internal HTTP client: undici, web streams, AbortSignal, URL)',
    /^node:internal\/(deps\/undici|webstreams|worker\/js_transferable|abort_controller|event_target|url|blob)|node_modules\/undici\//,
  ],
  [
    'promises, microtasks, async hooks',
    /^node:(internal\/process\/(task_queues|promises)|internal\/async_hooks|async_hooks)/,
  ],
  ['node http server', /^node:(_http_|http$|internal\/http)/],
  ['node net + streams', /^node:(net|stream|internal\/(streams|stream_base_commons|net))/],
  ['our code (services, proto)', /\/(services\/[^/]+|proto)\/(dist|src)\//],
  ['other node internals', /^node:/],
  ['other packages', /node_modules\//],
];

export interface BucketTotals {
  /** Milliseconds of self time per bucket (idle left out). */
  ms: Map<string, number>;
  /** Milliseconds not idle. */
  busyMs: number;
}

const SPECIAL = new Map<string, string | null>([
  ['(idle)', null],
  ['(garbage collector)', 'garbage collector'],
  ['(program)', '(program): V8 and native work outside JS'],
]);

const bucketOfUrl = (url: string): string => BUCKETS.find(([, test]) => test.test(url))?.[0] ?? 'other';

/** Adds the self time of a profile's samples to `into`, bucket by bucket. */
export function addProfile(file: string, into: BucketTotals): void {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  /**
   * A script's bucket; a built-in (JSON.parse, writev, a RegExp: no script of its own) counts for
   * the nearest caller that has one, so a socket write made for socket.io is socket.io's.
   */
  const bucketOf = (id: number): string | null => {
    const { functionName } = nodes.get(id)!.callFrame;
    const special = SPECIAL.get(functionName);
    if (special !== undefined) return special;
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const caller = nodes.get(at)!.callFrame.url;
      if (caller) return bucketOfUrl(caller);
    }
    return 'built-ins called from nowhere in JS';
  };
  const buckets = new Map<number, string | null>();
  profile.samples.forEach((nodeId, i) => {
    // A sample stands for the time until the next one (as DevTools counts it).
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (!buckets.has(nodeId)) buckets.set(nodeId, bucketOf(nodeId));
    const bucket = buckets.get(nodeId);
    if (!bucket) return;
    into.ms.set(bucket, (into.ms.get(bucket) ?? 0) + ms);
    into.busyMs += ms;
  });
}

export const emptyTotals = (): BucketTotals => ({ ms: new Map(), busyMs: 0 });
