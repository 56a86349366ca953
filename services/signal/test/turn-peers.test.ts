import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@uis/kit/testing';
import { freeUdpPortRange, startCoturn, type RunningCoturn } from '../src';
import { turnCredentials } from '../src/call-settings/ice-servers';
import { TurnClient } from './support/turn-client';

/**
 * What coturn relays to, as configured everywhere (PEER_RESTRICTIONS: compose, Kubernetes and `npm
 * run stack` pass the same list): someone holding valid TURN credentials asks for permissions to
 * relay into private networks, the host's loopback, a cloud's metadata address and IPv6 forms that
 * hide an IPv4 address, and is refused (403) each time; a public address is allowed. On one machine
 * (`npm run stack`, the tests) coturn's own address alone is let through.
 */

const SECRET = 'a-turn-secret-of-this-test-only-0123456789';

const FORBIDDEN_V4 = [
  '10.1.2.3',
  '100.64.0.1',
  '127.0.0.1',
  '127.0.0.2',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '192.0.0.8',
  '198.18.0.1',
  '0.0.0.1',
  '224.0.0.1',
  '255.255.255.255',
];
const FORBIDDEN_V6 = [
  '::1',
  '::ffff:10.0.0.1',
  '::ffff:127.0.0.1',
  '64:ff9b::a00:1',
  '2002:a00:1::1',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'ff02::1',
];

describe('coturn refuses relays to anything but public peers', () => {
  const started: Array<{ coturn: RunningCoturn; dir: string }> = [];

  async function coturnOn(ip: string, oneMachine: boolean): Promise<number> {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-turn-peers-'));
    const coturn = await startCoturn({
      secret: SECRET,
      ip,
      port,
      relayPorts: await freeUdpPortRange(10, ip === '::1' ? '127.0.0.1' : ip),
      dir,
      oneMachine,
    });
    started.push({ coturn, dir });
    return port;
  }

  async function client(ip: string, port: number, family: 'ipv4' | 'ipv6' = 'ipv4'): Promise<TurnClient> {
    const { username, credential } = turnCredentials(SECRET, 'b5d4c0de-0000-4000-8000-000000000001', 600);
    const turn = new TurnClient(ip, port, username, credential);
    const allocated = await turn.allocate(family);
    expect(allocated).toMatchObject({ ok: true });
    return turn;
  }

  afterAll(async () => {
    for (const { coturn, dir } of started) {
      await coturn.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('as deployed: every private, loopback, link-local, CGNAT, reserved and multicast IPv4 peer is refused', async () => {
    const turn = await client('127.0.0.1', await coturnOn('127.0.0.1', false));
    try {
      for (const address of FORBIDDEN_V4) {
        expect({ address, code: (await turn.permit(address)).code }).toEqual({ address, code: 403 });
      }
      expect(await turn.permit('8.8.8.8')).toMatchObject({ ok: true, code: 0 });
    } finally {
      turn.close();
    }
  }, 30_000);

  it('as deployed: loopback, unique-local, link-local, multicast and IPv4-carrying IPv6 peers are refused', async () => {
    const turn = await client('::1', await coturnOn('::1', false), 'ipv6');
    try {
      for (const address of FORBIDDEN_V6) {
        expect({ address, code: (await turn.permit(address)).code }).toEqual({ address, code: 403 });
      }
      expect(await turn.permit('2001:4860:4860::8888')).toMatchObject({ ok: true });
    } finally {
      turn.close();
    }
  }, 30_000);

  it('on one machine: coturn’s own address is let through, nothing else private', async () => {
    const turn = await client('127.0.0.1', await coturnOn('127.0.0.1', true));
    try {
      expect(await turn.permit('127.0.0.1')).toMatchObject({ ok: true });
      for (const address of ['127.0.0.2', '10.0.0.1', '192.168.0.1', '169.254.169.254']) {
        expect({ address, code: (await turn.permit(address)).code }).toEqual({ address, code: 403 });
      }
    } finally {
      turn.close();
    }
  }, 30_000);
});
