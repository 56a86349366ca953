import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freeUdpPortRange, prepareCoturn, stunAnswers, turnUrlOf, turnserverBinary } from '@uis/signal';
import type { Lifecycle } from '../lifecycle';
import { startChild, waitUntilReady, type Child, type LineSink } from './child-process';

/**
 * The calls' TURN server for `npm run stack`: Debian's coturn (`apt-get install coturn`) when it is
 * installed, on 127.0.0.1 beside the other processes, in the shared-secret mode signal signs
 * credentials for, with a secret of this run. Without it the calls use the public servers.
 */

/**
 * How many UDP ports it relays on: one per allocation, which every browser in a call makes (relay
 * only or not) and which outlives a closed tab for up to its 10-minute lifetime. Ten ran out when
 * the browser tests' calls ran side by side; 400 keeps a class's worth of reloads.
 */
const RELAY_PORT_COUNT = 400;
const READY_WITHIN_MS = 15_000;

/** The variables signal gets for it, or null when coturn is not installed. */
export async function startStackTurn(
  input: { dataDir: string; port: number; sink: LineSink; log: (message: string) => void },
  lifecycle: Lifecycle,
): Promise<{ child: Child; env: Record<string, string> } | null> {
  const { port, log } = input;
  const binary = turnserverBinary();
  if (!binary) {
    log('coturn is not installed (apt-get install coturn): calls use the public STUN and TURN servers.');
    return null;
  }
  const secret = randomBytes(32).toString('hex');
  // A range of its own, clear of another coturn's (the machine's own uses 49152-65535).
  const relayPorts = await freeUdpPortRange(RELAY_PORT_COUNT);
  const args = prepareCoturn({
    secret,
    ip: '127.0.0.1',
    port,
    relayPorts,
    dir: path.join(input.dataDir, 'coturn'),
    // The browsers of this machine are its peers, all on loopback.
    oneMachine: true,
  });
  const child = startChild({
    label: 'coturn',
    command: binary,
    args,
    env: { PATH: process.env.PATH },
    sink: input.sink,
  });
  lifecycle.onStop('coturn', () => child.stop());
  await waitUntilReady(
    child,
    async () => ((await stunAnswers('127.0.0.1', port, 500)) ? 200 : 503),
    READY_WITHIN_MS,
    lifecycle,
  );
  log(`coturn relays the calls on 127.0.0.1:${port} (relay ports ${relayPorts.min}-${relayPorts.max}).`);
  return { child, env: { TURN_URLS: turnUrlOf('127.0.0.1', port), TURN_SECRET: secret } };
}
