import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { freePort, waitFor } from '@uis/kit/testing';
import { LiveConnection, type SendOutcome } from '@uis/live-client';
import {
  EMBEDDED_DATABASE,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../launcher/src/embedded-postgres';
import { signUp, startComposedStack, type ComposedStack } from './support/composed-stack';

/**
 * Postgres restarted while people chat and use the REST API (a Postgres of the test's own, the
 * embedded one, so the shared server of the other tests stays up): every call answers at once, a
 * clear 503 while the database is away and success again once it is back, without restarting any
 * service; every chat message acknowledged before, during or after the restart is stored.
 */

/** No call may take longer than this, even while the database is away ("never a hang"). */
const ANSWER_WITHIN_MS = 8_000;

describe('Postgres restarted during traffic', () => {
  let root: string;
  let postgres: EmbeddedPostgres | undefined;
  let stack: ComposedStack;
  const password = 'restart-test-'.padEnd(40, 'x');
  let port: number;
  const clusterDir = () => path.join(root, 'postgres');
  const start = () =>
    startEmbeddedPostgres({
      clusterDir: clusterDir(),
      port,
      password,
      database: EMBEDDED_DATABASE,
      log: () => {},
    });

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-pg-restart-'));
    // As root, Postgres runs as the `postgres` user, which must be able to enter this folder.
    fs.chmodSync(root, 0o755);
    port = await freePort();
    postgres = await start();
    // The chatters here send faster than a person: the write limit has tests of its own.
    stack = await startComposedStack('pg_restart', { DATABASE_URL: postgres.url, LIVE_WRITE_LIMIT: '10000' });
  }, 180_000);

  const live: LiveConnection[] = [];
  afterAll(async () => {
    for (const connection of live) connection.close();
    await stack?.close();
    await postgres?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 while it is away, recovers by itself, and keeps every acknowledged message', async () => {
    const owner = await signUp(stack, 'owner@restart.test', 'Owner', 'researcher');
    const pat = await signUp(stack, 'pat@restart.test', 'Pat');
    const { group } = await stack.api.ok('createGroup', {}, owner.token);
    const { session } = await stack.api.ok('createSession', { groupId: group.group_id }, owner.token);
    const sessionId = session.session_id;

    for (const person of [owner, pat]) {
      live.push(
        new LiveConnection({
          url: stack.env.PUBLIC_URL!,
          accessToken: () => person.token,
          ackTimeoutMs: 5_000,
        }),
      );
    }
    for (const connection of live) {
      await connection.connected();
      await connection.join(sessionId);
    }

    // Traffic: both people chat, the owner reads and writes through REST, until told to stop.
    let running = true;
    const outcomes: Array<{ text: string; outcome: SendOutcome }> = [];
    const answers: Array<{ status: number; ms: number }> = [];
    const chatting = live.map(async (connection, who) => {
      for (let n = 0; running; n += 1) {
        const text = `${who}-${n}`;
        outcomes.push({ text, outcome: await connection.send(text) });
        await sleep(50);
      }
    });
    const calling = (async () => {
      for (let n = 0; running; n += 1) {
        const began = Date.now();
        const answer =
          n % 2 === 0
            ? await stack.api.call('getGroups', {}, owner.token)
            : await stack.api.call(
                'editGroup',
                { groupId: group.group_id, title: `Study ${n}` },
                owner.token,
              );
        answers.push({ status: answer.status, ms: Date.now() - began });
        await sleep(40);
      }
    })();

    await sleep(1_000);
    await postgres!.stop();
    postgres = undefined;
    await sleep(3_000); // the database is away: calls answer 503 meanwhile
    const duringOutage = answers.length;
    postgres = await start();
    const back = answers.length;
    await waitFor(
      () => answers.slice(back).some((answer) => answer.status === 200),
      'a REST call to succeed again after the restart',
      15_000,
    );
    await sleep(1_000);
    running = false;
    await Promise.all([...chatting, calling]);

    const statuses = new Set(answers.map((answer) => answer.status));
    expect([...statuses].sort()).toEqual([200, 503]);
    expect(answers.slice(duringOutage - 5, duringOutage).every((answer) => answer.status === 503)).toBe(true);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(ANSWER_WITHIN_MS);
    expect(answers.at(-1)?.status).toBe(200);

    const acknowledged = outcomes
      .filter(({ outcome }) => outcome.kind === 'acknowledged')
      .map(({ text }) => text);
    const refused = outcomes.filter(({ outcome }) => outcome.kind === 'refused');
    expect(acknowledged.length).toBeGreaterThan(20);
    // Refusals during the outage say so, with the code a REST answer would carry.
    for (const { outcome } of refused) expect(outcome).toMatchObject({ code: 'UNAVAILABLE' });
    const stored = await storedMessages(sessionId);
    expect(acknowledged.filter((text) => !stored.includes(text))).toEqual([]);
    expect(new Set(stored).size).toBe(stored.length);

    // The live lists converge on what is stored, by themselves.
    for (const connection of live) {
      await waitFor(
        () => connection.state.messages.length === stored.length,
        'the live list to catch up with the database',
        10_000,
      );
      expect(connection.state.messages.map((message) => message.message).sort()).toEqual([...stored].sort());
    }
  }, 120_000);

  async function storedMessages(sessionId: string): Promise<string[]> {
    const client = new Client({ connectionString: postgres!.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ message: string }>(
        'SELECT message FROM records.messages WHERE session_id = $1 ORDER BY seq',
        [sessionId],
      );
      return rows.map((row) => row.message);
    } finally {
      await client.end();
    }
  }
});
