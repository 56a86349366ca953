import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';

const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const MAGIC_COOKIE = 0x2112a442;

/**
 * Whether a STUN server answers a Binding request (RFC 5389) on `host:port` over UDP within
 * `timeoutMs`: how a starting coturn is known to be ready, and how a health check asks it. A
 * Binding request needs no credentials, even in coturn's shared-secret mode.
 */
export function stunAnswers(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  const transaction = randomBytes(12);
  const request = Buffer.alloc(20);
  request.writeUInt16BE(BINDING_REQUEST, 0);
  request.writeUInt16BE(0, 2);
  request.writeUInt32BE(MAGIC_COOKIE, 4);
  transaction.copy(request, 8);
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  return new Promise((resolve) => {
    let settled = false;
    const done = (answered: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('message', (message) => {
      if (
        message.length >= 20 &&
        message.readUInt16BE(0) === BINDING_SUCCESS &&
        message.subarray(8, 20).equals(transaction)
      ) {
        done(true);
      }
    });
    // Nothing listening: ICMP port unreachable comes back as an error on the socket.
    socket.on('error', () => done(false));
    socket.send(request, port, host, (error) => {
      if (error) done(false);
    });
  });
}
