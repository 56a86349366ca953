import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freeUdpPortRange, startCoturn } from './coturn';

/**
 * `node services/signal/dist/src/coturn/run-coturn.js`: coturn on 127.0.0.1 for a test run in
 * another process (the browser tests' global setup), in a temporary folder that goes with it.
 * COTURN_SECRET (required), COTURN_PORT, COTURN_RELAY_PORTS (how many; 10). Prints
 * `ready {"url":...,"port":...,"relayPorts":...}` once coturn answers; stops it on SIGTERM or
 * SIGINT, and exits when it does.
 */
async function main(): Promise<void> {
  const secret = process.env.COTURN_SECRET;
  const port = Number(process.env.COTURN_PORT);
  if (!secret || !Number.isInteger(port) || port <= 0) {
    throw new Error('COTURN_SECRET and COTURN_PORT are required');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-coturn-'));
  const relayPorts = await freeUdpPortRange(Number(process.env.COTURN_RELAY_PORTS ?? 10));
  const coturn = await startCoturn(
    { secret, ip: '127.0.0.1', port, relayPorts, dir, oneMachine: true },
    (line) => process.stderr.write(`[coturn] ${line}\n`),
  ).catch((error: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void coturn.stop());
  console.log(`ready ${JSON.stringify({ url: coturn.url, port, relayPorts })}`);
  const code = await coturn.exited;
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(typeof code === 'number' ? code : 0);
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
