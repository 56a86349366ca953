import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PEER_RESTRICTIONS } from './denied-peers';
import { stunAnswers } from './stun-probe';

/**
 * Debian's coturn (`apt-get install coturn`) on one machine, in the shared-secret mode signal's
 * credentials are made for: for `npm run stack`, signal's tests and the browser tests. A deployment
 * runs its own (docker-compose.yml's `coturn`, k8s/turn), with the same settings.
 */

export interface CoturnOptions {
  /** coturn's `static-auth-secret`: signal's TURN_SECRET. */
  secret: string;
  /** The one address it listens on and relays from (127.0.0.1 on one machine). */
  ip: string;
  /** Its STUN/TURN port (UDP and TCP). */
  port: number;
  /** The UDP ports it relays media on, `min` to `max`: one per allocation (a browser in a call). */
  relayPorts: { min: number; max: number };
  /** A folder of its own: its configuration (with the secret), pid file and user database. */
  dir: string;
  /**
   * One machine (`npm run stack`, the tests): relays to `ip` itself are let through the denied
   * ranges, as every browser's relayed address there is coturn's own (relay to relay). Nothing else
   * on loopback: its other ports and addresses stay out of reach.
   */
  oneMachine?: boolean;
  realm?: string;
}

/** Where Debian puts it; TURNSERVER_BIN names another. Null when it is not installed. */
export function turnserverBinary(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.TURNSERVER_BIN) return env.TURNSERVER_BIN;
  for (const dir of (env.PATH ?? '').split(path.delimiter).concat('/usr/bin', '/usr/sbin')) {
    const candidate = path.join(dir, 'turnserver');
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** The TURN URL browsers are given for it (UDP: the common case; TCP answers on the same port). */
export const turnUrlOf = (host: string, port: number): string => `turn:${host}:${port}?transport=udp`;

/**
 * Writes the configuration (secrets in a file of the owner's only, never on the command line, where
 * `ps` would show them) and answers the arguments: everything else, and no reading of
 * /etc/turnserver.conf, which belongs to the machine's own coturn.
 */
export function prepareCoturn(options: CoturnOptions): string[] {
  fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const config = path.join(options.dir, 'turnserver.conf');
  const lines = [`static-auth-secret=${options.secret}`];
  // coturn will not relay to loopback with an empty CLI password, even with the CLI off.
  if (options.oneMachine) lines.push(`cli-password=${randomBytes(16).toString('hex')}`);
  fs.writeFileSync(config, `${lines.join('\n')}\n`, { mode: 0o600 });
  return [
    '-c',
    config,
    `--listening-ip=${options.ip}`,
    `--relay-ip=${options.ip}`,
    `--listening-port=${options.port}`,
    `--min-port=${options.relayPorts.min}`,
    `--max-port=${options.relayPorts.max}`,
    '--use-auth-secret',
    `--realm=${options.realm ?? 'uis'}`,
    '--fingerprint',
    '--no-cli',
    // No certificate here: TURN over TLS (turns:) is a deployment's, with its own certificate.
    '--no-tls',
    '--no-dtls',
    '--no-software-attribute',
    ...PEER_RESTRICTIONS,
    ...(options.oneMachine ? ['--allow-loopback-peers', `--allowed-peer-ip=${options.ip}`] : []),
    '--log-file=stdout',
    '--simple-log',
    `--pidfile=${path.join(options.dir, 'turnserver.pid')}`,
    `--userdb=${path.join(options.dir, 'turndb')}`,
  ];
}

export interface RunningCoturn {
  /** `turn:<ip>:<port>?transport=udp`, for TURN_URLS. */
  url: string;
  pid: number;
  /** Settles when it exits, with its code or signal. */
  exited: Promise<number | string>;
  /** Its last lines of output, for the message when something fails. */
  lastLines(): string[];
  /** SIGTERM, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const READY_WITHIN_MS = 10_000;
const KEPT_LINES = 40;

/**
 * Starts coturn and resolves once it answers STUN on its port; rejects, with its last words, when
 * it is not installed, exits or does not answer in time.
 */
export async function startCoturn(
  options: CoturnOptions,
  onLine: (line: string) => void = () => undefined,
): Promise<RunningCoturn> {
  const binary = turnserverBinary();
  if (!binary) throw new Error("coturn is not installed: apt-get install coturn (Debian's package).");
  const child = spawn(binary, prepareCoturn(options), { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      onLine(line);
    });
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error) => {
      lines.push(`could not start ${binary}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 0));
  });
  let ended = false;
  void exited.then(() => (ended = true));
  const stop = async (graceMs = 5_000) => {
    if (ended) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!(await stunAnswers(options.ip, options.port, 250))) {
    if (ended || Date.now() > deadline) {
      await stop();
      throw new Error(
        `coturn did not answer on ${options.ip}:${options.port} (${ended ? 'it exited' : 'timed out'}):\n${lines.join('\n')}`,
      );
    }
  }
  return {
    url: turnUrlOf(options.ip, options.port),
    pid: child.pid ?? 0,
    exited,
    lastLines: () => [...lines],
    stop,
  };
}

/**
 * `count` consecutive UDP ports free on `host` right now, for a relay range of a run's own (a test
 * beside another one, or beside the machine's coturn on the default 49152-65535).
 */
export async function freeUdpPortRange(
  count: number,
  host = '127.0.0.1',
): Promise<{ min: number; max: number }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const min = 40_000 + Math.floor(Math.random() * (49_000 - 40_000));
    const sockets: dgram.Socket[] = [];
    try {
      for (let port = min; port < min + count; port++) {
        const socket = dgram.createSocket('udp4');
        sockets.push(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.bind(port, host, () => resolve());
        });
      }
      return { min, max: min + count - 1 };
    } catch {
      // Taken: another range.
    } finally {
      for (const socket of sockets) {
        try {
          socket.close();
        } catch {
          // Never bound: nothing to close.
        }
      }
    }
  }
  throw new Error(`no ${count} consecutive free UDP ports on ${host}`);
}
