import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiClient, freePort, type ApiClient } from '@uis/kit/testing';
import { orderMessages, type MessageRecord } from '@uis/proto';
import { LiveConnection, type SendOutcome } from '@uis/live-client';
import request from 'supertest';
import { repoRoot } from '../../launcher/src/data-dir';

/**
 * `npm run soak` (not in CI): `npm start`'s process under a steady session mix for a long while, to
 * see whether its memory keeps growing and whether any acknowledged message goes missing.
 *
 * SOAK_MINUTES (default 30) of SOAK_CLIENTS (default 200) live clients in sessions of 10 (a
 * researcher and 9 participants), each sending a message every 5 to 15 s; the researchers allow
 * clicks and the participants click now and then; every few minutes a client drops its connection
 * and comes back. Goals: 0 messages lost, every live list equal to the database's, and no growth of
 * the server's memory after the warm-up (SOAK_WARMUP_MINUTES, default 3) beyond 10%.
 *
 * Memory is what the server's JavaScript heap (and the native memory it holds) keeps after a forced
 * collection, printed every 30 s by scripts/bench/soak/heap-probe.ts, which the server runs preloaded:
 * the mean of the minute after the warm-up against the mean of the last minute. Resident memory
 * (sampled every 10 s, with its Postgres's) is reported too but is no measure of a leak: V8 grows
 * its heap under allocation pressure and returns pages lazily, and the allocator keeps what was
 * freed: at 200 clients the heap kept after collection stays at about 70 MB from the third minute on,
 * while resident memory has been seen to go from 227 to 350 MB (and a heap snapshot alone adds
 * some 250 MB that the allocator keeps).
 *
 * SOAK_DROP_RATE (default 0.01): the chance, after each message, that its client drops its
 * connection for 2 s. SOAK_SETTLE_SECONDS (default 60): how long, after the last message, every
 * client may take to be connected again and hold the database's list (a busy machine delivers
 * late: nothing asks for a list meanwhile, so a lost message stays lost); what still differs then
 * is reported client by client. SOAK_HEAP=1: heap snapshots after the warm-up and at the end too,
 * in SOAK_HEAP_DIR (default a temporary folder), to compare object counts by constructor.
 */

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? 3);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 200);
const DROP_RATE = Number(process.env.SOAK_DROP_RATE ?? 0.01);
const SETTLE_SECONDS = Number(process.env.SOAK_SETTLE_SECONDS ?? 60);
const HEAP = process.env.SOAK_HEAP === '1';
const PER_SESSION = 10;
const REPO = repoRoot();
const START_SCRIPT = path.join(REPO, 'scripts/dist/launcher/src/start.js');

const log = (message: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** A line of heap-probe.ts (bytes). */
interface HeapSample {
  at: number;
  /** Reserved by V8 just before the collection, garbage included. */
  heapTotalBefore: number;
  heapUsed: number;
  external: number;
  rss: number;
}

interface Server {
  child: ChildProcess;
  url: string;
  api: ApiClient;
  /** Resolves with the next magic link printed for `email`. */
  linkFor(email: string): Promise<string>;
  dataDir: string;
  /** The heap after a forced collection, as the probe printed it. */
  heap: HeapSample[];
  /** SOAK_HEAP: writes a heap snapshot and resolves with its file. */
  snapshot(): Promise<string>;
}

async function startServer(): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-soak-'));
  fs.chmodSync(dataDir, 0o755); // as root, the embedded Postgres (user postgres) must pass through
  const [api, realtime, signal, postgres, s3] = await Promise.all([1, 2, 3, 4, 5].map(() => freePort()));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  Object.assign(env, {
    UIS_DATA_DIR: dataDir,
    API_PORT: String(api),
    REALTIME_PORT: String(realtime),
    SIGNAL_PORT: String(signal),
    EMBEDDED_PG_PORT: String(postgres),
    EMBEDDED_S3_PORT: String(s3),
    LOG_LEVEL: 'warn',
    LIVE_WRITE_LIMIT: '1000',
    ...(HEAP
      ? {
          SOAK_HEAP_DIR:
            process.env.SOAK_HEAP_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'uis-soak-heap-')),
        }
      : {}),
  });
  const probe = ['--expose-gc', '--require', path.join(__dirname, 'heap-probe.js')];
  const child = spawn(process.execPath, [...probe, START_SCRIPT], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const waiting = new Map<string, (link: string) => void>();
  const heap: HeapSample[] = [];
  const snapshots: Array<(file: string) => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const complete = output.slice(0, output.lastIndexOf('\n') + 1);
    output = output.slice(complete.length);
    for (const match of complete.matchAll(/\[dev outbox\] magic link for (\S+): (\S+)/g)) {
      waiting.get(match[1]!)?.(match[2]!);
      waiting.delete(match[1]!);
    }
    for (const match of complete.matchAll(/^\[soak-heap\] (.*)$/gm))
      heap.push(JSON.parse(match[1]!) as HeapSample);
    for (const match of complete.matchAll(/^\[soak-heap-snapshot\] (.*)$/gm)) snapshots.shift()?.(match[1]!);
  });
  const url = `http://127.0.0.1:${api}`;
  for (let ready = false; !ready; await sleep(500)) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    ready = await fetch(`${url}/ready`).then(
      (res) => res.ok,
      () => false,
    );
  }
  return {
    child,
    url,
    dataDir,
    heap,
    api: apiClient(() => request(url)),
    linkFor: (email) => new Promise((resolve) => waiting.set(email, resolve)),
    snapshot: () =>
      new Promise((resolve) => {
        snapshots.push(resolve);
        child.kill('SIGUSR2');
      }),
  };
}

/** Resident memory (kB) of a process, from /proc. */
function rssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The Postgres processes serving the soak's own cluster. */
function postgresPids(dataDir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return command.includes('postgres') && command.includes(dataDir);
      } catch {
        return false;
      }
    });
}

interface Person {
  email: string;
  accessToken: string;
  refreshToken: string;
}

async function signUp(server: Server, email: string, type: 'researcher' | 'participant'): Promise<Person> {
  const link = server.linkFor(email);
  await server.api.ok('magicLogin', { destination: email });
  const token = new URL(await link).searchParams.get('token') ?? '';
  return {
    email,
    ...(await server.api.ok('setNewUser', { email, name: email.split('@')[0]!, type, token })),
  };
}

/** What the web client does before an access token expires: trade the refresh token for a new pair. */
async function renew(server: Server, person: Person): Promise<string> {
  Object.assign(
    person,
    await server.api.ok('getAccessTokenFromRefreshToken', { refreshToken: person.refreshToken }),
  );
  return person.accessToken;
}

/** What happened to one client's connection, for explaining a list that differs at the end. */
interface Trace {
  /** When the soak dropped its connection on purpose. */
  drops: number[];
  /** Every disconnect socket.io reported, with its reason ('io client disconnect' for a drop). */
  disconnects: Array<{ at: number; reason: string }>;
  /** Every connect after the first, and whether socket.io's connection state recovery restored it. */
  reconnects: Array<{ at: number; recovered: boolean }>;
  /** Every `message` list it received: when, how long, and its first and last texts. */
  lists: Array<{ at: number; length: number; first?: string; last?: string; failed?: boolean }>;
  /** Texts whose acknowledgement never came (the client resynced). */
  unanswered: string[];
}

interface Client {
  index: number;
  connection: LiveConnection;
  sessionId: string;
  researcher: boolean;
  trace: Trace;
}

function traced(connection: LiveConnection): Trace {
  const trace: Trace = { drops: [], disconnects: [], reconnects: [], lists: [], unanswered: [] };
  let connectedOnce = false;
  connection.socket.on('connect', () => {
    if (connectedOnce) trace.reconnects.push({ at: Date.now(), recovered: connection.socket.recovered });
    connectedOnce = true;
  });
  connection.socket.on('disconnect', (reason) => trace.disconnects.push({ at: Date.now(), reason }));
  connection.socket.on('message', (answer) => {
    const at = Date.now();
    if (answer.status !== 'SUCCESS') return void trace.lists.push({ at, length: 0, failed: true });
    const list = answer.res;
    trace.lists.push({ at, length: list.length, first: list[0]?.message, last: list.at(-1)?.message });
  });
  return trace;
}

/** How a client's list differs from the database's (empty when it does not). */
interface Difference {
  missing: string[];
  extra: string[];
  duplicated: string[];
  /** The texts both hold, in another order than the database's. */
  misordered: boolean;
}

function differenceOf(seen: readonly MessageRecord[], stored: readonly MessageRecord[]): Difference | null {
  const storedTexts = new Set(stored.map((m) => m.message));
  const seenIds = new Set(seen.map((m) => m.message_id));
  const counts = new Map<string, number>();
  for (const m of seen) counts.set(m.message_id, (counts.get(m.message_id) ?? 0) + 1);
  const missing = stored.filter((m) => !seenIds.has(m.message_id)).map((m) => m.message);
  const extra = seen.filter((m) => !storedTexts.has(m.message)).map((m) => m.message);
  const duplicated = seen.filter((m) => counts.get(m.message_id)! > 1).map((m) => m.message);
  const common = seen.filter((m) => storedTexts.has(m.message)).map((m) => m.message_id);
  const inSeen = new Set(common);
  const storedCommon = stored.filter((m) => inSeen.has(m.message_id)).map((m) => m.message_id);
  const misordered = common.some((id, i) => storedCommon[i] !== id);
  if (missing.length + extra.length + duplicated.length === 0 && !misordered && seen.length === stored.length)
    return null;
  return { missing, extra, duplicated, misordered };
}

const clockOf = (at: number) => new Date(at).toISOString().slice(11, 23);

/** The lines that explain one client's difference: what it missed, where, and what its connection did. */
function explain(
  client: Client,
  seen: readonly MessageRecord[],
  stored: readonly MessageRecord[],
  d: Difference,
): string[] {
  const { trace } = client;
  const role = client.researcher ? 'researcher' : 'participant';
  const position = new Map(stored.map((m, i) => [m.message, i]));
  const storedBy = new Map(stored.map((m) => [m.message, m]));
  const describe = (text: string) => {
    const m = storedBy.get(text);
    return m
      ? `${text} (#${position.get(text)! + 1} of ${stored.length}, stored ${m.time.slice(11, 23)})`
      : text;
  };
  const lines = [
    `- client ${client.index} (${role}, session ${client.sessionId.slice(0, 8)}, ${client.connection.state.status}): ` +
      `${seen.length} messages, the database ${stored.length}; ` +
      `${trace.drops.length} drops, ${trace.reconnects.length} reconnects ` +
      `(${trace.reconnects.filter((r) => r.recovered).length} recovered), ` +
      `${trace.lists.length} lists received, ${trace.unanswered.length} unanswered sends`,
  ];
  if (d.missing.length)
    lines.push(`  - missing ${d.missing.length}: ${d.missing.slice(0, 8).map(describe).join(', ')}`);
  if (d.extra.length) lines.push(`  - extra ${d.extra.length}: ${d.extra.slice(0, 8).join(', ')}`);
  if (d.duplicated.length) lines.push(`  - duplicated: ${d.duplicated.slice(0, 8).join(', ')}`);
  if (d.misordered) {
    const common = new Set(seen.map((m) => m.message));
    const storedOrder = stored.filter((m) => common.has(m.message));
    const at = seen.findIndex((m, i) => storedOrder[i]?.message !== m.message);
    const show = (list: readonly MessageRecord[]) =>
      list
        .slice(Math.max(0, at - 1), at + 3)
        .map((m) => `${m.message}@${m.time.slice(17, 23)}/${m.message_id.slice(0, 4)}`)
        .join(' ');
    lines.push(`  - order differs at #${at + 1}: client ${show(seen)}; database ${show(storedOrder)}`);
  }
  // What its connection did (the last dozen events): a list that left a message out shows here.
  const events = [
    ...trace.drops.map((at) => ({ at, what: 'dropped by the soak' })),
    ...trace.disconnects.map((e) => ({ at: e.at, what: `disconnect (${e.reason})` })),
    ...trace.reconnects.map((e) => ({ at: e.at, what: `reconnect${e.recovered ? ' (recovered)' : ''}` })),
    ...trace.lists.map((e) => ({
      at: e.at,
      what: e.failed ? 'list refused' : `list of ${e.length}: ${e.first} .. ${e.last}`,
    })),
  ].sort((a, b) => a.at - b.at);
  for (const event of events.slice(-12)) lines.push(`  - ${clockOf(event.at)} ${event.what}`);
  return lines;
}

async function main(): Promise<void> {
  log(`starting npm start's process (${START_SCRIPT})`);
  const server = await startServer();
  const sessions = Math.ceil(CLIENTS / PER_SESSION);
  const clients: Client[] = [];
  const researchers = new Map<string, Person>();
  const outcomes: Array<{ sessionId: string; text: string; outcome: SendOutcome }> = [];
  try {
    log(`signing up ${CLIENTS} people in ${sessions} sessions`);
    for (let s = 0; s < sessions; s += 1) {
      const researcher = await signUp(server, `researcher${s}@soak.test`, 'researcher');
      const { group } = await server.api.ok('createGroup', {}, researcher.accessToken);
      const { session } = await server.api.ok(
        'createSession',
        { groupId: group.group_id },
        researcher.accessToken,
      );
      researchers.set(session.session_id, researcher);
      const people = [researcher];
      for (let p = 1; p < PER_SESSION && clients.length + people.length < CLIENTS; p += 1) {
        people.push(await signUp(server, `p${s}-${p}@soak.test`, 'participant'));
      }
      await server.api.ok(
        'editSessionInfo',
        {
          sessionId: session.session_id,
          scope: people.slice(1).map((person) => person.email),
          state: 'live',
        },
        researcher.accessToken,
      );
      for (const [index, person] of people.entries()) {
        const connection = new LiveConnection({
          url: server.url,
          accessToken: () => person.accessToken,
          renewAccessToken: () => renew(server, person),
        });
        const trace = traced(connection);
        await connection.connected();
        await connection.join(session.session_id);
        if (index === 0)
          await connection.ask('toggleParticipantClicks', {
            sessionId: session.session_id,
            allowClicks: true,
          });
        clients.push({
          index: clients.length,
          connection,
          sessionId: session.session_id,
          researcher: index === 0,
          trace,
        });
      }
    }

    const pid = server.child.pid!;
    const samples: Array<{ at: number; server: number; postgres: number }> = [];
    const sample = () => {
      const postgres = postgresPids(server.dataDir).reduce((sum, p) => sum + rssKb(p), 0);
      samples.push({ at: Date.now(), server: rssKb(pid), postgres });
    };
    const began = Date.now();
    const until = began + MINUTES * 60_000;
    log(`${clients.length} clients connected; running for ${MINUTES} min`);
    sample();
    const sampler = setInterval(sample, 10_000);
    const reporter = setInterval(() => {
      const last = samples.at(-1)!;
      const heap = server.heap.at(-1);
      log(
        `server ${Math.round(last.server / 1024)} MB` +
          (heap
            ? ` (heap ${mb(heap.heapTotalBefore)} MB, after a collection ${mb(heap.heapUsed)} MB + ${mb(heap.external)} MB external)`
            : '') +
          `, postgres ${Math.round(last.postgres / 1024)} MB, ${outcomes.length} messages sent`,
      );
    }, 60_000);
    let warmSnapshot: Promise<string> | undefined;
    const snapshotTimer =
      HEAP &&
      setTimeout(() => {
        warmSnapshot = server.snapshot();
        void warmSnapshot.then((file) => log(`heap snapshot after the warm-up: ${file}`));
      }, WARMUP_MINUTES * 60_000);

    await Promise.all(
      clients.map(async ({ connection, sessionId, researcher, trace }, i) => {
        for (let n = 0; Date.now() < until; n += 1) {
          await sleep(5_000 + Math.random() * 10_000);
          if (Date.now() >= until) break;
          const text = `c${i}-m${n}`;
          const outcome = await connection.send(text);
          outcomes.push({ sessionId, text, outcome });
          if (outcome.kind === 'unanswered') trace.unanswered.push(text);
          if (!researcher && Math.random() < 0.2) {
            await connection
              .ask('clickVideo', {
                sessionId,
                x: Math.random(),
                y: Math.random(),
                color: 'rgb(1, 2, 3)',
                videoTime: n,
              })
              .catch(() => undefined);
          }
          // Now and then a client loses its connection (a laptop closing, a train tunnel).
          if (Math.random() < DROP_RATE) {
            trace.drops.push(Date.now());
            connection.socket.disconnect();
            await sleep(2_000);
            connection.socket.connect();
          }
        }
      }),
    );
    clearInterval(sampler);
    clearInterval(reporter);
    if (snapshotTimer) clearTimeout(snapshotTimer);
    sample();
    const end = samples.at(-1)!;
    let endSnapshot: string | undefined;
    if (HEAP) {
      endSnapshot = await server.snapshot();
      log(`heap snapshot at the end: ${endSnapshot}`);
    }

    // The database's lists: as getMessages gives them (the order they were stored), and sorted as
    // the live lists sort (compareMessages): the same order, which every live list must equal.
    const storedOf = async () => {
      const stored = new Map<string, { asStored: MessageRecord[]; live: MessageRecord[] }>();
      for (const [sessionId, researcher] of researchers) {
        const messages: MessageRecord[] = [];
        let after: string | undefined;
        do {
          const page = await server.api.ok(
            'getMessages',
            { sessionId, ...(after ? { after } : {}) },
            await renew(server, researcher),
          );
          messages.push(...page.messages);
          after = page.next ?? undefined;
        } while (after);
        stored.set(sessionId, { asStored: messages, live: orderMessages(messages) });
      }
      return stored;
    };
    const differenceFor = (client: Client, stored: Awaited<ReturnType<typeof storedOf>>) =>
      differenceOf(client.connection.state.messages, stored.get(client.sessionId)!.live);

    // A busy machine delivers late and a dropped client may still be reconnecting: every client gets
    // SOAK_SETTLE_SECONDS to be connected and hold the database's list. What is late arrives by
    // itself (nothing here asks for a list); a message a client lost never does.
    log(`waiting up to ${SETTLE_SECONDS} s for every client to be connected and hold the database's list`);
    const settleFrom = Date.now();
    const unsettled = async () => {
      const stored = await storedOf();
      const differing = clients.filter((client) => differenceFor(client, stored) !== null);
      const notConnected = clients.filter((c) => c.connection.state.status !== 'connected');
      return { stored, differing, notConnected };
    };
    let check = await unsettled();
    while (
      check.differing.length + check.notConnected.length > 0 &&
      Date.now() - settleFrom < SETTLE_SECONDS * 1000
    ) {
      await sleep(2_000);
      check = await unsettled();
    }
    const { stored, differing, notConnected } = check;
    const settledIn = (Date.now() - settleFrom) / 1000;

    log('checking every acknowledged message against the database');
    let lost = 0;
    let unansweredStored = 0;
    let duplicatesStored = 0;
    let storedOrderDiffers = 0;
    for (const [sessionId, { asStored, live }] of stored) {
      const texts = new Set(asStored.map((message) => message.message));
      duplicatesStored += asStored.length - texts.size;
      if (asStored.some((message, i) => live[i]!.message_id !== message.message_id)) storedOrderDiffers += 1;
      lost += outcomes.filter(
        (o) => o.sessionId === sessionId && o.outcome.kind === 'acknowledged' && !texts.has(o.text),
      ).length;
      unansweredStored += outcomes.filter(
        (o) => o.sessionId === sessionId && o.outcome.kind === 'unanswered' && texts.has(o.text),
      ).length;
    }
    const details = differing.slice(0, 5).flatMap((client) => {
      const list = client.connection.state.messages;
      const { live } = stored.get(client.sessionId)!;
      return explain(client, list, live, differenceOf(list, live)!);
    });
    const kinds = { missing: 0, extra: 0, duplicated: 0, misordered: 0 };
    for (const client of differing) {
      const d = differenceFor(client, stored)!;
      if (d.missing.length) kinds.missing += 1;
      if (d.extra.length) kinds.extra += 1;
      if (d.duplicated.length) kinds.duplicated += 1;
      if (d.misordered) kinds.misordered += 1;
    }

    // Memory: the mean of the minute after the warm-up against the mean of the last minute.
    const warmFrom = began + WARMUP_MINUTES * 60_000;
    const meanOf = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
    const kept = (h: HeapSample) => h.heapUsed + h.external;
    const heapWarm = meanOf(
      server.heap.filter((h) => h.at >= warmFrom && h.at < warmFrom + 60_000).map(kept),
    );
    const heapEnd = meanOf(server.heap.filter((h) => h.at >= until - 60_000 && h.at <= until).map(kept));
    const warm = samples.find((s) => s.at >= warmFrom) ?? samples[0]!;
    const growth = (from: number, to: number) => (from > 0 ? ((to - from) / from) * 100 : 0);
    const heapGrowth = growth(heapWarm, heapEnd);
    const memoryOk = heapWarm > 0 && heapEnd > 0 && heapGrowth <= 10;
    const acknowledged = outcomes.filter((o) => o.outcome.kind === 'acknowledged').length;
    const unanswered = outcomes.filter((o) => o.outcome.kind === 'unanswered').length;
    const refused = outcomes.length - acknowledged - unanswered;
    const drops = clients.reduce((sum, c) => sum + c.trace.drops.length, 0);
    const reconnects = clients.reduce((sum, c) => sum + c.trace.reconnects.length, 0);
    const recovered = clients.reduce(
      (sum, c) => sum + c.trace.reconnects.filter((r) => r.recovered).length,
      0,
    );
    const report = [
      `## Soak, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `${clients.length} clients in ${sessions} sessions for ${MINUTES} min (warm-up ${WARMUP_MINUTES} min), ` +
        `drop rate ${DROP_RATE}, ${os.cpus().length} cores, load average at the end ${os.loadavg()[0]!.toFixed(1)}.`,
      '',
      '| measure | value | goal |',
      '|---|---|---|',
      `| messages sent / acknowledged / refused / unanswered | ${outcomes.length} / ${acknowledged} / ${refused} / ${unanswered} | |`,
      `| unanswered messages stored all the same | ${unansweredStored} of ${unanswered} | |`,
      `| acknowledged messages lost | ${lost} | 0 |`,
      `| messages stored twice | ${duplicatesStored} | 0 |`,
      `| connections dropped / reconnects (recovered by socket.io) | ${drops} / ${reconnects} (${recovered}) | |`,
      `| live lists that differ from the database (in the live order) after ${settledIn.toFixed(0)} s | ${differing.length} (missing ${kinds.missing}, extra ${kinds.extra}, duplicated ${kinds.duplicated}, other order ${kinds.misordered}) | 0 |`,
      `| clients not connected at the end | ${notConnected.length}${notConnected.length ? ` (${notConnected.map((c) => c.index).join(', ')})` : ''} | 0 |`,
      `| sessions whose stored order (getMessages) is not the live order | ${storedOrderDiffers} of ${stored.size} | |`,
      `| server heap kept after a forced collection (JS + external), minute after warm-up -> last minute | ${mb(heapWarm)} -> ${mb(heapEnd)} MB (${heapGrowth.toFixed(1)}%) | at most +10% |`,
      `| server process RSS after warm-up -> end (not a leak measure) | ${Math.round(warm.server / 1024)} -> ${Math.round(end.server / 1024)} MB (${growth(warm.server, end.server).toFixed(1)}%) | |`,
      `| Postgres RSS after warm-up -> end | ${Math.round(warm.postgres / 1024)} -> ${Math.round(end.postgres / 1024)} MB (${growth(warm.postgres, end.postgres).toFixed(1)}%) | at most +10% |`,
      ...(details.length ? ['', 'Lists that differ (the first five):', '', ...details] : []),
      ...(HEAP
        ? ['', `Heap snapshots: ${[warmSnapshot ? await warmSnapshot : '(none)', endSnapshot].join(', ')}`]
        : []),
    ].join('\n');
    console.log(`\n${report}\n`);
    log(
      'heap after a collection by minute (MB, JS + external / reserved before / RSS): ' +
        server.heap
          .map(
            (h) =>
              `${((h.at - began) / 60_000).toFixed(1)}m ${mb(kept(h))}/${mb(h.heapTotalBefore)}/${mb(h.rss)}`,
          )
          .join(', '),
    );
    if (process.env.SOAK_REPORT) fs.appendFileSync(process.env.SOAK_REPORT, `\n${report}\n`);
    process.exitCode = lost === 0 && differing.length === 0 && notConnected.length === 0 && memoryOk ? 0 : 1;
  } finally {
    for (const { connection } of clients) connection.close();
    server.child.kill('SIGINT');
    await new Promise((resolve) => server.child.once('exit', resolve));
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
