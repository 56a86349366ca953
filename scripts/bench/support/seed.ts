import type { AuthUser } from '@uis/kit';
import { apiClient } from '@uis/kit/testing';
import {
  MESSAGES_PER_APPEND,
  internalRoutes,
  routes,
  type AnswerOf,
  type RequestOf,
  type RouteName,
} from '@uis/proto';
import request from 'supertest';
import type { BenchStack } from './bench-stack';

/** What the benchmarks need in a stack: a researcher, their groups and sessions, a session's chat. */

export interface Researcher {
  user: AuthUser;
  token: string;
}

export function researcher(bench: BenchStack, name: string): Researcher {
  return bench.person('researcher', name);
}

/** One of our routes, through the tests' typed client on the owning service's own address, as `who`; its answer's `res`. */
export function callRoute<N extends RouteName>(
  bench: BenchStack,
  name: N,
  who: Researcher,
  input: RequestOf<N>,
): Promise<AnswerOf<N>> {
  const service = routes[name].service as keyof typeof bench.stack.serviceUrls;
  const url = bench.stack.serviceUrls[service] as string;
  return apiClient(() => request(url)).ok(name, input, who.token);
}

/** A group of `who` holding `sessions` sessions; their ids. */
export async function groupWithSessions(
  bench: BenchStack,
  who: Researcher,
  sessions: number,
): Promise<{ groupId: string; sessionIds: string[] }> {
  const { group } = await callRoute(bench, 'createGroup', who, {});
  const sessionIds: string[] = [];
  // One after the other: each default title is numbered after the previous ones.
  for (let i = 0; i < sessions; i += 1) {
    sessionIds.push(
      (await callRoute(bench, 'createSession', who, { groupId: group.group_id })).session.session_id,
    );
  }
  return { groupId: group.group_id, sessionIds };
}

/** `count` chat messages by `who` in the session, through records' batch append (realtime's path). */
export async function seedMessages(
  bench: BenchStack,
  who: Researcher,
  sessionId: string,
  count: number,
): Promise<void> {
  const records = bench.records();
  const author = { sessionId, userId: who.user.id, email: who.user.email, name: who.user.name };
  for (let sent = 0; sent < count; sent += MESSAGES_PER_APPEND) {
    const items = Array.from({ length: Math.min(MESSAGES_PER_APPEND, count - sent) }, (_, i) => ({
      ...author,
      message: `Benchmark message ${sent + i + 1}: what the participants type in a session, a line or two.`,
    }));
    await records.call(internalRoutes.recordsAppendMessages, { items });
  }
}
