import { LiveConnection, type ConnectionStatus, type LiveConnectionOptions } from '@uis/live-client';
import type { Ack, ClientEventAcks, ClientEventName, ServerEventName, ServerPayloadOf } from '@uis/proto';
import type { Socket } from 'socket.io-client';

export interface TestConnectOptions {
  /** The access token (auth.token); renewAccessToken may replace it. */
  token?: string;
  /** Sent as the Origin header, as a browser would. */
  origin?: string;
  /** Instead of `token`: the accessToken cookie, as a browser on the same host sends it. */
  cookie?: string;
  /** How the client gets a new access token (the browser refreshes it over REST). */
  renewAccessToken?: () => Promise<string | undefined>;
  ackTimeoutMs?: number;
}

/**
 * The browser's live client (the live client's LiveConnection), with what tests read besides its state:
 * every event the server sent and every event the client sent, in order, and its reconnects.
 * Nothing here changes what the client does.
 */
export class RecordingConnection extends LiveConnection {
  /** Every event the server sent, in order, with when it came (epoch ms). */
  readonly received: Array<[event: string, payload: unknown, at: number]> = [];
  /** Every event this client sent, in order (its own and the ones LiveConnection sends by itself). */
  readonly sent: Array<[event: string, payload: unknown]> = [];
  /** Each status the client went through, in order (a screen shows each). */
  readonly statuses: ConnectionStatus[];
  reconnects = 0;
  lastConnectAt = 0;

  constructor(url: string, options: TestConnectOptions = {}) {
    const extraHeaders: Record<string, string> = {};
    if (options.origin) extraHeaders.origin = options.origin;
    if (options.cookie) extraHeaders.cookie = `accessToken=${options.cookie}`;
    const { renewAccessToken } = options;
    const credentials = { token: options.token };
    const settings: LiveConnectionOptions = {
      url,
      accessToken: () => credentials.token,
      extraHeaders,
      ackTimeoutMs: options.ackTimeoutMs ?? 5000,
      // Faster than the browser's defaults, so a test does not wait for a reconnect; forceNew:
      // each client its own connection, as each browser tab has.
      socket: { forceNew: true, reconnectionDelay: 500, reconnectionDelayMax: 2000, timeout: 5000 },
    };
    if (renewAccessToken) {
      settings.renewAccessToken = async () => {
        const renewed = await renewAccessToken();
        if (renewed) credentials.token = renewed;
        return renewed;
      };
    }
    super(settings);
    this.statuses = [this.state.status];
    this.subscribe(({ status }) => {
      if (status !== this.statuses.at(-1)) this.statuses.push(status);
    });
    this.socket.onAny((event: string, payload: unknown) => this.received.push([event, payload, Date.now()]));
    this.socket.onAnyOutgoing((event: string, payload: unknown) => this.sent.push([event, payload]));
    this.socket.io.on('reconnect', () => (this.reconnects += 1));
    this.socket.on('connect', () => (this.lastConnectAt = Date.now()));
  }

  /** The payloads of one server event received so far. */
  payloadsOf<E extends ServerEventName>(event: E): Array<ServerPayloadOf<E>> {
    return this.received
      .filter(([name]) => name === event)
      .map(([, payload]) => payload as ServerPayloadOf<E>);
  }

  /** The last payload of one server event, or null. */
  last<E extends ServerEventName>(event: E): ServerPayloadOf<E> | null {
    return this.payloadsOf(event).at(-1) ?? null;
  }

  /** When one server event came first, or null. */
  firstAt(event: ServerEventName): number | null {
    return this.received.find(([name]) => name === event)?.[2] ?? null;
  }

  /** The names of the server events received so far. */
  receivedEvents(): string[] {
    return this.received.map(([event]) => event);
  }

  texts(): string[] {
    return this.state.messages.map((message) => message.message);
  }
}

/**
 * The connection's socket without proto's types: the raw protocol, as a modified client could
 * speak it (any payload, several arguments, no callback). Refusal tests send what the typed client cannot.
 */
export function rawSocket(connection: LiveConnection): Socket {
  return connection.socket;
}

/** Any payload for any event, with a callback: the acknowledgement. */
export function rawAsk<E extends ClientEventName>(
  connection: LiveConnection,
  event: E,
  payload: unknown,
  timeoutMs = 5000,
): Promise<Ack<ClientEventAcks[E]>> {
  return rawSocket(connection).timeout(timeoutMs).emitWithAck(event, payload) as Promise<
    Ack<ClientEventAcks[E]>
  >;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
