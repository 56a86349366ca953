import { performance } from 'node:perf_hooks';
import { LiveConnection } from '@uis/live-client';
import { cpuMeter, median } from '../support/measure';
import type { BenchSession } from './sessions';

/**
 * P4: what one join and one message cost in a session with a short history and in one with a long
 * history, side by side in interleaved rounds, one client at a time (this is cost, not load).
 */

const JOINS = 20;
const MESSAGES = 150;

async function connect(url: string, ca: string, session: BenchSession): Promise<LiveConnection> {
  return new LiveConnection({
    url,
    accessToken: () => session.tokens[0],
    socket: { forceNew: true, ca, reconnection: false },
  }).connected(30_000);
}

/** Connect and join; the time to the list, and the bytes of what the join brought (ack and list event). */
async function oneJoin(
  url: string,
  ca: string,
  session: BenchSession,
): Promise<{ ms: number; bytes: number }> {
  const began = performance.now();
  const live = await connect(url, ca, session);
  let bytes = 0;
  live.on('message', (answer) => (bytes += JSON.stringify(answer).length));
  const joined = await live.join(session.sessionId);
  const ms = performance.now() - began;
  bytes += JSON.stringify(joined).length;
  live.close();
  if (joined.status !== 'SUCCESS') throw new Error(`join refused: ${joined.res.message}`);
  return { ms, bytes };
}

async function messages(
  url: string,
  ca: string,
  session: BenchSession,
  serverPids: () => number[],
): Promise<{ ms: number; cpuMs: number }> {
  const live = await connect(url, ca, session);
  await live.join(session.sessionId);
  const times: number[] = [];
  const cpu = cpuMeter(serverPids);
  for (let i = 0; i < MESSAGES; i += 1) {
    const began = performance.now();
    const outcome = await live.send(`History cost message ${i}, about as long as a real one in a chat.`);
    if (outcome.kind !== 'acknowledged') throw new Error(`message not acknowledged: ${outcome.kind}`);
    times.push(performance.now() - began);
  }
  const cpuMs = (cpu.stop() * 1000) / MESSAGES;
  live.close();
  return { ms: median(times), cpuMs };
}

/** JOINS joins, one after the other: the median time and bytes. */
export async function joinCost(
  url: string,
  ca: string,
  session: BenchSession,
): Promise<{ ms: number; bytes: number }> {
  const joins: { ms: number; bytes: number }[] = [];
  for (let i = 0; i < JOINS; i += 1) joins.push(await oneJoin(url, ca, session));
  return { ms: median(joins.map((join) => join.ms)), bytes: median(joins.map((join) => join.bytes)) };
}

/** MESSAGES messages, one after the other: the median acknowledgement time and server CPU per message. */
export const messageCost = messages;
