import { createHash, createHmac, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';

/**
 * Just enough of a TURN client (RFC 5766 over UDP, long-term credentials) to ask coturn what an
 * attacker with valid credentials would: an allocation, then a permission to relay to a peer.
 */

const MAGIC_COOKIE = 0x2112a442;
const METHOD = { allocate: 0x0003, createPermission: 0x0008 } as const;
const ATTRIBUTE = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  xorPeerAddress: 0x0012,
  requestedAddressFamily: 0x0017,
  requestedTransport: 0x0019,
} as const;
const SUCCESS = 0x0100;
const ERROR = 0x0110;

interface Attribute {
  type: number;
  value: Buffer;
}

interface Answer {
  ok: boolean;
  /** The ERROR-CODE of an error answer (401, 403, 443...), else 0. */
  code: number;
  attributes: Map<number, Buffer>;
}

const padded = (value: Buffer) => Buffer.concat([value, Buffer.alloc((4 - (value.length % 4)) % 4)]);

function encode(type: number, transaction: Buffer, attributes: Attribute[], key?: Buffer): Buffer {
  const body = Buffer.concat(
    attributes.map(({ type: attributeType, value }) => {
      const head = Buffer.alloc(4);
      head.writeUInt16BE(attributeType, 0);
      head.writeUInt16BE(value.length, 2);
      return Buffer.concat([head, padded(value)]);
    }),
  );
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt32BE(MAGIC_COOKIE, 4);
  transaction.copy(header, 8);
  if (!key) {
    header.writeUInt16BE(body.length, 2);
    return Buffer.concat([header, body]);
  }
  // MESSAGE-INTEGRITY: an HMAC-SHA1 of everything before it, the length already counting it.
  header.writeUInt16BE(body.length + 24, 2);
  const mac = createHmac('sha1', key)
    .update(Buffer.concat([header, body]))
    .digest();
  const integrity = Buffer.alloc(4);
  integrity.writeUInt16BE(ATTRIBUTE.messageIntegrity, 0);
  integrity.writeUInt16BE(20, 2);
  return Buffer.concat([header, body, integrity, mac]);
}

function decode(message: Buffer): Answer {
  const type = message.readUInt16BE(0);
  const attributes = new Map<number, Buffer>();
  let offset = 20;
  while (offset + 4 <= message.length) {
    const attributeType = message.readUInt16BE(offset);
    const length = message.readUInt16BE(offset + 2);
    attributes.set(attributeType, message.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length + ((4 - (length % 4)) % 4);
  }
  const error = attributes.get(ATTRIBUTE.errorCode);
  const code = error ? (error[2]! & 0x07) * 100 + error[3]! : 0;
  return { ok: (type & 0x0110) === SUCCESS, code: (type & 0x0110) === ERROR ? code : 0, attributes };
}

/** XOR-PEER-ADDRESS of `address` (IPv4 or IPv6) and a port. */
function xorPeerAddress(address: string, port: number, transaction: Buffer): Buffer {
  const v6 = net.isIPv6(address);
  const raw = v6 ? ipv6Bytes(address) : Buffer.from(address.split('.').map(Number));
  const mask = Buffer.alloc(raw.length);
  mask.writeUInt32BE(MAGIC_COOKIE, 0);
  if (v6) transaction.copy(mask, 4);
  const value = Buffer.alloc(4 + raw.length);
  value.writeUInt8(v6 ? 0x02 : 0x01, 1);
  value.writeUInt16BE(port ^ (MAGIC_COOKIE >>> 16), 2);
  for (let i = 0; i < raw.length; i += 1) value[4 + i] = raw[i]! ^ mask[i]!;
  return value;
}

function ipv6Bytes(address: string): Buffer {
  // An embedded IPv4 tail (::ffff:10.0.0.1) as two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = tail
    ? address.replace(
        tail[0],
        [
          ((Number(tail[1]) << 8) | Number(tail[2])).toString(16),
          ((Number(tail[3]) << 8) | Number(tail[4])).toString(16),
        ].join(':'),
      )
    : address;
  const [head = '', rest] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(rest).length;
  const all = [...groups(head), ...(rest === undefined ? [] : Array(missing).fill('0')), ...groups(rest)];
  const bytes = Buffer.alloc(16);
  all.forEach((group, i) => bytes.writeUInt16BE(parseInt(group, 16), i * 2));
  return bytes;
}

/** One UDP conversation with coturn: an allocation with `username` and `password`, then permissions. */
export class TurnClient {
  private readonly socket: dgram.Socket;
  private realm: Buffer = Buffer.alloc(0);
  private nonce: Buffer = Buffer.alloc(0);
  private key: Buffer = Buffer.alloc(0);

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly username: string,
    private readonly password: string,
  ) {
    this.socket = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
  }

  /** Allocates a relay of `family`: true when coturn gave one. */
  async allocate(family: 'ipv4' | 'ipv6' = 'ipv4'): Promise<Answer> {
    const transport = Buffer.from([17, 0, 0, 0]);
    const attributes: Attribute[] = [{ type: ATTRIBUTE.requestedTransport, value: transport }];
    if (family === 'ipv6')
      attributes.push({ type: ATTRIBUTE.requestedAddressFamily, value: Buffer.from([0x02, 0, 0, 0]) });
    // The first try has no credentials: coturn answers 401 with its realm and a nonce.
    const challenge = await this.ask(METHOD.allocate, attributes, false);
    if (challenge.code !== 401) return challenge;
    this.realm = challenge.attributes.get(ATTRIBUTE.realm) ?? Buffer.alloc(0);
    this.nonce = challenge.attributes.get(ATTRIBUTE.nonce) ?? Buffer.alloc(0);
    this.key = createHash('md5')
      .update(`${this.username}:${this.realm.toString()}:${this.password}`)
      .digest();
    return this.ask(METHOD.allocate, attributes, true);
  }

  /** Asks for a permission to relay to `address`: coturn's answer (403: a forbidden peer). */
  permit(address: string, port = 40_000): Promise<Answer> {
    return this.ask(
      METHOD.createPermission,
      [{ type: ATTRIBUTE.xorPeerAddress, value: Buffer.alloc(0) }],
      true,
      {
        address,
        port,
      },
    );
  }

  close(): void {
    this.socket.close();
  }

  private ask(
    method: number,
    attributes: Attribute[],
    signed: boolean,
    peer?: { address: string; port: number },
  ): Promise<Answer> {
    const transaction = randomBytes(12);
    const all = attributes.map((attribute) =>
      attribute.type === ATTRIBUTE.xorPeerAddress && peer
        ? { type: attribute.type, value: xorPeerAddress(peer.address, peer.port, transaction) }
        : attribute,
    );
    if (signed) {
      all.push(
        { type: ATTRIBUTE.username, value: Buffer.from(this.username) },
        { type: ATTRIBUTE.realm, value: this.realm },
        { type: ATTRIBUTE.nonce, value: this.nonce },
      );
    }
    const request = encode(method, transaction, all, signed ? this.key : undefined);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.socket.off('message', onMessage);
        reject(new Error(`coturn did not answer method ${method} within 3 s`));
      }, 3_000);
      const onMessage = (message: Buffer) => {
        if (message.length < 20 || !message.subarray(8, 20).equals(transaction)) return;
        clearTimeout(timer);
        this.socket.off('message', onMessage);
        resolve(decode(message));
      };
      this.socket.on('message', onMessage);
      this.socket.send(request, this.port, this.host);
    });
  }
}
