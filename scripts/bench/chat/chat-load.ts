import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import type { MessageRecord } from '@uis/proto';
import { LiveMessageList } from '@uis/proto/browser';
import { LiveConnection } from '@uis/live-client';
import { io, type Socket } from 'socket.io-client';
import { sleep } from '../support/measure';
import type { ConnectReport, LoadCommand, LoadSetup, RoundReport } from './load-protocol';

/**
 * The chat goals' load generator, its own process: the sockets of one target (ours through proto's
 * LiveConnection, what the browser runs; the bare server through a plain socket.io client keeping
 * the same LiveMessageList), driven by JSON lines on stdin, answering JSON lines on stdout. Every
 * message carries its send time, so each receiver's delay is read on this one clock.
 */

const setup = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadSetup;
/** Rounds end at most this long after their last send: what has not arrived by then is lost. */
const DRAIN_MS = 5000;
const CONNECT_TIMEOUT_MS = 60_000;

interface Member {
  sessionId: string;
  send(text: string): Promise<boolean>;
  close(): void;
}

let onDelivery: (sentAt: number) => void = () => undefined;

function heard(message: { message: string }): void {
  const stamp = /^bench (\d+(?:\.\d+)?) /.exec(message.message);
  if (stamp) onDelivery(Number(stamp[1]));
}

async function ours(sessionId: string, token: string): Promise<Member> {
  const live = new LiveConnection({
    url: setup.url,
    accessToken: () => token,
    socket: { forceNew: true, ca: setup.ca, reconnection: false },
  });
  live.on('messageAdded', ({ message }) => heard(message));
  await live.connected(CONNECT_TIMEOUT_MS);
  const joined = await live.join(sessionId);
  if (joined.status !== 'SUCCESS') throw new Error(`join refused: ${joined.res.message}`);
  return {
    sessionId,
    send: async (text) => (await live.send(text)).kind === 'acknowledged',
    close: () => live.close(),
  };
}

async function bare(sessionId: string): Promise<Member> {
  const socket: Socket = io(setup.url, {
    path: '/socket.io/',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    ca: setup.ca,
  });
  const list = new LiveMessageList<MessageRecord>();
  socket.on('messageAdded', ({ message }: { message: MessageRecord }) => {
    list.receivedAdded(message);
    heard(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const answer = (await socket.timeout(CONNECT_TIMEOUT_MS).emitWithAck('join', { room: sessionId })) as {
    res: MessageRecord[];
  };
  list.receivedList(answer.res);
  return {
    sessionId,
    send: async (text) =>
      ((await socket.timeout(10_000).emitWithAck('send', { room: sessionId, text })) as { status: string })
        .status === 'SUCCESS',
    close: () => socket.close(),
  };
}

const rooms = new Map<string, Member[]>();

async function connect(spreadMs: number): Promise<ConnectReport> {
  const sockets = setup.sessions.flatMap(({ sessionId, tokens }) =>
    tokens.map((token) => ({ sessionId, token })),
  );
  const joinMs: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  const began = performance.now();
  const spacing = spreadMs / sockets.length;
  await Promise.all(
    sockets.map(async ({ sessionId, token }, i) => {
      await sleep(Math.max(0, began + i * spacing - performance.now()));
      const started = performance.now();
      try {
        const member = await (setup.target === 'ours' ? ours(sessionId, token) : bare(sessionId));
        joinMs.push(performance.now() - started);
        rooms.set(sessionId, [...(rooms.get(sessionId) ?? []), member]);
      } catch (error) {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }),
  );
  return {
    joined: joinMs.length,
    failed,
    firstError,
    joinMs: joinMs.sort((a, b) => a - b),
    wallMs: performance.now() - began,
  };
}

const PADDING = 'a message about as long as a real one in a study chat.';

async function round(sessions: number, seconds: number): Promise<RoundReport> {
  const chosen = [...rooms.values()].slice(0, sessions);
  const latencies: number[] = [];
  let expected = 0;
  let acknowledged = 0;
  onDelivery = (sentAt) => latencies.push(performance.now() - sentAt);
  const cpu0 = process.cpuUsage();
  const began = performance.now();
  const sends: Promise<void>[] = [];
  const spacing = 1000 / chosen.length;
  for (let second = 0; second < seconds; second += 1) {
    for (const [i, members] of chosen.entries()) {
      await sleep(Math.max(0, began + second * 1000 + i * spacing - performance.now()));
      const sender = members[second % members.length]!;
      expected += members.length;
      const sentAt = performance.now();
      sends.push(
        sender.send(`bench ${sentAt.toFixed(3)} ${PADDING}`).then(
          (ok) => void (ok && (acknowledged += 1)),
          () => undefined,
        ),
      );
    }
  }
  await Promise.all(sends);
  const deadline = performance.now() + DRAIN_MS;
  while (latencies.length < expected && performance.now() < deadline) await sleep(20);
  const cpu = process.cpuUsage(cpu0);
  onDelivery = () => undefined;
  return {
    sent: sends.length,
    acknowledged,
    expected,
    delivered: latencies.length,
    latencies: latencies.sort((a, b) => a - b),
    wallMs: performance.now() - began,
    clientCpu: (cpu.user + cpu.system) / 1e6,
  };
}

async function handle(command: LoadCommand): Promise<unknown> {
  switch (command.cmd) {
    case 'connect':
      return connect(command.spreadMs);
    case 'round':
      return round(command.sessions, command.seconds);
    case 'disconnect':
      for (const members of rooms.values()) for (const member of members) member.close();
      rooms.clear();
      return {};
    case 'close':
      for (const members of rooms.values()) for (const member of members) member.close();
      setTimeout(() => process.exit(0), 100);
      return {};
  }
}

// Commands come one at a time: the bench waits for each answer.
createInterface({ input: process.stdin }).on('line', (line) => {
  void handle(JSON.parse(line) as LoadCommand).then(
    (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`),
    (error: unknown) => process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`),
  );
});
// Bounded: a generator whose bench went away ends by itself.
process.stdin.on('end', () => process.exit(0));
setTimeout(() => process.exit(2), 30 * 60_000).unref();
