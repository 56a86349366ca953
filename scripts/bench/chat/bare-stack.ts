import fs from 'node:fs';
import path from 'node:path';
import { PROFILE_PRELOAD, freePort, randomSuffix } from '@uis/kit/testing';
import { DEFAULT_APP_CONFIG } from '@uis/proto';
import { Lifecycle } from '../../launcher/src/lifecycle';
import { startChild, waitUntilReady, type Child } from '../../launcher/src/stack/child-process';
import { startGateway } from '../../launcher/src/stack/gateway-process';
import { ensureSelfSignedCertificate } from '../../launcher/src/stack/self-signed-certificate';
import { processTree } from '../support/measure';

/**
 * The chat baseline as a deployment: two bare socket.io servers on the same Redis streams adapter,
 * behind the very nginx gateway config ours runs under (its /socket.io/ location, TLS, least_conn),
 * so that the comparison measures the servers, not the path to them.
 */
export interface BareStack {
  url: string;
  ca: string;
  /** The two servers and the gateway's nginx with its workers. */
  pids(): number[];
  serverPids(): number[];
  stop(): Promise<void>;
}

/** `heapSnapshotDir`: where the servers write heap snapshots when asked (the preload's SIGCONT). */
export async function startBareStack(
  scratch: string,
  redisUrl: string,
  heapSnapshotDir: string,
): Promise<BareStack> {
  const lifecycle = new Lifecycle(() => undefined);
  const runDir = fs.mkdtempSync(path.join(scratch, 'bare-'));
  const prefix = `uis-bench-bare-${randomSuffix()}`;
  const servers: Child[] = [];
  try {
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const child = startChild({
        label: `bare-${port}`,
        command: process.execPath,
        args: [path.join(__dirname, 'bare-server.js')],
        // The benchmarks' preload, as in our services: SIGURG collects garbage before memory is read,
        // SIGCONT writes a heap snapshot.
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          REDIS_URL: redisUrl,
          PREFIX: prefix,
          NODE_OPTIONS: `--require=${PROFILE_PRELOAD}`,
          HEAP_SNAPSHOT_DIR: heapSnapshotDir,
        },
        sink: () => undefined,
      });
      servers.push(child);
      lifecycle.onStop(child.label, () => child.stop());
      await waitUntilReady(child, () => portAnswers(port), 20_000, lifecycle);
    }
    const tls = ensureSelfSignedCertificate(path.join(runDir, 'tls'));
    // Only /socket.io/ is used; the other upstreams name a port nothing listens on.
    const nowhere = [`127.0.0.1:${await freePort()}`];
    const gatewayPort = await freePort();
    const gateway = await startGateway(
      {
        runDir: path.join(runDir, 'gateway'),
        port: gatewayPort,
        tls,
        upstreams: {
          auth: nowhere,
          studies: nowhere,
          content: nowhere,
          records: nowhere,
          signal: nowhere,
          realtime: ports.map((port) => `127.0.0.1:${port}`),
        },
        appConfig: DEFAULT_APP_CONFIG,
      },
      () => undefined,
      lifecycle,
    );
    lifecycle.onStop('gateway', () => gateway.stop());
    const serverPids = () => servers.map((child) => child.pid);
    return {
      url: `https://localhost:${gatewayPort}`,
      ca: fs.readFileSync(tls.certificate, 'utf8'),
      serverPids,
      pids: () => [...serverPids(), ...processTree(gateway.pid)],
      stop: () => lifecycle.stopAll(),
    };
  } catch (error) {
    await lifecycle.stopAll();
    throw error;
  }
}

async function portAnswers(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`).catch(() => null);
  // The server accepts WebSocket only: polling is refused with 400, which proves it listens.
  return res ? 200 : 0;
}
