/// <reference types="node" />
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CallSettings } from '@uis/proto';
import type { BrowserContext, Page } from '@playwright/test';
import { OUTPUT_DIR, REPO_ROOT } from './paths';

/**
 * The e2e run's own TURN server, and what the relay spec reads of a call: Debian's coturn on
 * 127.0.0.1 (started by global-setup through services/signal's run-coturn, the launcher `npm run
 * stack` and signal's tests use too), credentials made as signal makes them, and the pages' ICE.
 */

const RUN_COTURN = path.join(REPO_ROOT, 'services', 'signal', 'dist', 'src', 'coturn', 'run-coturn.js');
const READY_WITHIN_MS = 20_000;
/** coturn's own log (allocations, refusals and why), for the run's record when a call fails. */
const COTURN_LOG = path.join(OUTPUT_DIR, 'coturn.log');
/**
 * Relay ports: one per allocation, and an allocation outlives a closed page for its lifetime (10
 * minutes) unless the browser frees it, so every call of the run (relay or not: each gathers a relay
 * candidate) needs its own. 10 ran out when the call specs ran side by side (508, capacity).
 */
const RELAY_PORTS = 400;

export interface TestTurn {
  /** `turn:127.0.0.1:<port>?transport=udp`: the server's TURN_URLS. */
  url: string;
  stop(): Promise<void>;
}

/** coturn on `port` with `secret` (signal's TURN_SECRET), relaying between loopback peers. */
export async function startTestTurn(port: number, secret: string): Promise<TestTurn> {
  const child = spawn(process.execPath, [RUN_COTURN], {
    env: {
      ...process.env,
      COTURN_PORT: String(port),
      COTURN_SECRET: secret,
      COTURN_RELAY_PORTS: String(RELAY_PORTS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const log = fs.createWriteStream(COTURN_LOG);
  child.stderr.pipe(log);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`coturn was not ready after ${READY_WITHIN_MS} ms:\n${output}`)),
      READY_WITHIN_MS,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^ready (.+)$/m.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve((JSON.parse(ready[1]!) as { url: string }).url);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      // Its last line says what is missing (apt-get install coturn), or why it stopped.
      reject(new Error(output.trim().split('\n').at(-1) ?? `coturn's launcher exited (${code})`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A credential of coturn's shared-secret mode: base64(HMAC-SHA1(secret, username)). */
export const turnCredential = (secret: string, username: string): string =>
  createHmac('sha1', secret).update(username).digest('base64');

/**
 * Changes the server's answer to /getCallSettings on its way to the context's pages: the spec plays
 * a deployment configured otherwise (relay only) or a credential gone wrong, while the server runs
 * one configuration for every spec of the run.
 */
export async function changeCallSettings(
  context: BrowserContext,
  change: (settings: CallSettings) => CallSettings,
): Promise<void> {
  await context.route(
    (url) => url.pathname === '/getCallSettings',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { status: string; res: CallSettings };
      await route.fulfill({ response, json: { ...body, res: change(body.res) } });
    },
  );
}

/**
 * Closes a context whose call settings were changed. A page may be asking for new settings as it
 * closes (a refused call is placed again), and the answer being changed then is disposed under the
 * handler: Playwright reported that as the test's error once the test had passed. Unrouting first,
 * ignoring such errors, is Playwright's way of ending a handler that may be in flight.
 */
export async function closeChangedContext(context: BrowserContext): Promise<void> {
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.close();
}

/** The pages' record of their calls: when each RTCPeerConnection was made and connected, and TURN errors. */
export function recordCallTimesScript(): void {
  const Native = window.RTCPeerConnection;
  const times: { created: number; connected: number | null; turnErrors: number[] }[] = [];
  Object.defineProperty(window, '__callTimes', { value: times });
  window.RTCPeerConnection = class extends Native {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      const entry = {
        created: performance.now(),
        connected: null as number | null,
        turnErrors: [] as number[],
      };
      times.push(entry);
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') entry.connected ??= performance.now();
      });
      this.addEventListener('icecandidateerror', (event) => {
        if (/^turns?:/.test(event.url)) entry.turnErrors.push(event.errorCode);
      });
    }
  };
}

export interface CallTimes {
  created: number;
  connected: number | null;
  turnErrors: number[];
}

export const callTimes = (page: Page): Promise<CallTimes[]> =>
  page.evaluate(() => (window as unknown as { __callTimes: CallTimes[] }).__callTimes);

export interface SelectedPair {
  localType: string;
  remoteType: string;
  bytesReceived: number;
  iceTransportPolicy: RTCIceTransportPolicy | undefined;
}

/**
 * The selected candidate pair of each open peer connection (support/call-media.ts records them), as
 * getStats reports it: the types of its two candidates and the bytes received over it.
 */
export function selectedPairsScript(): Promise<SelectedPair[]> {
  const made =
    (window as unknown as { __callPeerConnections?: RTCPeerConnection[] }).__callPeerConnections ?? [];
  return Promise.all(
    made
      .filter((connection) => connection.connectionState === 'connected')
      .map(async (connection) => {
        const stats = new Map<string, Record<string, unknown>>();
        (await connection.getStats()).forEach((report: Record<string, unknown>) =>
          stats.set(report.id as string, report),
        );
        const transport = [...stats.values()].find((report) => report.type === 'transport');
        const pair = stats.get(transport?.selectedCandidatePairId as string);
        return {
          localType: String(stats.get(pair?.localCandidateId as string)?.candidateType),
          remoteType: String(stats.get(pair?.remoteCandidateId as string)?.candidateType),
          bytesReceived: Number(pair?.bytesReceived ?? 0),
          iceTransportPolicy: connection.getConfiguration().iceTransportPolicy,
        };
      }),
  );
}

export const selectedPairs = (page: Page): Promise<SelectedPair[]> => page.evaluate(selectedPairsScript);
