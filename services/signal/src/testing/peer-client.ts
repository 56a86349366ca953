import { randomBytes } from 'node:crypto';
import { PEER_KEY, PEER_PATH, TOKEN_COOKIES } from '@uis/proto';
import { WebSocket } from 'ws';

/** A message of the PeerJS server protocol (OPEN, ID-TAKEN, ERROR, EXPIRE, OFFER, ...). */
export interface PeerMessage {
  type: string;
  src?: string;
  dst?: string;
  payload?: unknown;
}

/** How a non-browser client proves who it is: the header, or the cookie a browser would send. */
export type PeerAuth = { bearer: string } | { cookie: string } | null;

/** What the server did with a registration: let it in (PeerJS then speaks first) or refused the upgrade. */
export type PeerAttempt =
  { kind: 'connected'; peer: PeerConnection } | { kind: 'refused'; status: number; body: unknown };

/**
 * One registered PeerJS client over ws, as the browser's PeerJS client speaks to the server:
 * `<base>/stream/peerjs?key=peerjs&id=<id>&token=<random>`. For tests and smoke checks.
 */
export class PeerConnection {
  private readonly inbox: PeerMessage[] = [];
  private readonly waiting: ((message: PeerMessage | null) => void)[] = [];
  private ended = false;
  /** Resolves when the socket closes, with the close code and reason the server gave. */
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => this.deliver(JSON.parse(data.toString()) as PeerMessage));
    this.closed = new Promise((resolve) =>
      socket.on('close', (code: number, reason: Buffer) => {
        this.ended = true;
        for (const waiter of this.waiting.splice(0)) waiter(null);
        resolve({ code, reason: reason.toString() });
      }),
    );
  }

  /** The next message from the server, or null once the socket closed (or after `timeoutMs`). */
  next(timeoutMs = 3_000): Promise<PeerMessage | null> {
    const queued = this.inbox.shift();
    if (queued || this.ended) return Promise.resolve(queued ?? null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(done), 1);
        resolve(null);
      }, timeoutMs);
      const done = (message: PeerMessage | null) => {
        clearTimeout(timer);
        resolve(message);
      };
      this.waiting.push(done);
    });
  }

  send(message: PeerMessage | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Closes the socket and waits until the server has seen it go. */
  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  private deliver(message: PeerMessage): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(message);
    else this.inbox.push(message);
  }
}

/** The URL PeerJS's client opens for `peerId` on a signal server at `baseUrl` (http://host:port). */
export function peerSocketUrl(
  baseUrl: string,
  peerId: string,
  token = randomBytes(8).toString('hex'),
): string {
  const url = new URL(`${PEER_PATH}/peerjs`, baseUrl.replace(/^http/, 'ws'));
  url.search = new URLSearchParams({ key: PEER_KEY, id: peerId, token }).toString();
  return url.toString();
}

/** Opens a PeerJS registration of `peerId`; settles once the upgrade is accepted or refused. */
export function registerPeer(
  baseUrl: string,
  peerId: string,
  auth: PeerAuth,
  options: { token?: string; query?: Record<string, string>; origin?: string; ca?: Buffer } = {},
): Promise<PeerAttempt> {
  const headers: Record<string, string> = {};
  if (options.origin) headers.origin = options.origin;
  if (auth && 'bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`;
  if (auth && 'cookie' in auth) headers.cookie = `${TOKEN_COOKIES.accessToken}=${auth.cookie}`;
  const url = new URL(peerSocketUrl(baseUrl, peerId, options.token));
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const socket = new WebSocket(url, { headers, ca: options.ca });
  return new Promise((resolve, reject) => {
    socket.once('upgrade', () => resolve({ kind: 'connected', peer: new PeerConnection(socket) }));
    socket.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        socket.terminate();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ kind: 'refused', status: res.statusCode ?? 0, body });
      });
    });
    // After the upgrade a socket error also closes the socket, which `next()` reports as null.
    socket.on('error', (error) => reject(error));
  });
}
