import {
  LiveMessageList,
  REALTIME_PATH,
  type Ack,
  type ClientEventAcks,
  type ClientEventName,
  type MessageRecord,
  type ServerPayloadOf,
} from '@uis/proto';
import { io, type Socket } from 'socket.io-client';

export interface ConnectOptions {
  token?: string;
  /** Sent as the Origin header, as a browser would. */
  origin?: string;
  /** Instead of `token`: the accessToken cookie, as a browser on the same host sends it. */
  cookie?: string;
}

type VideoStatus = ServerPayloadOf<'videoStatus'>;

/**
 * A socket.io client that behaves as the web client should: it keeps the chat with proto's
 * LiveMessageList and the live state from the server's events, and on every reconnect it asks
 * for the list again (`sync`). Tests read what it ended up with.
 */
export class LiveClient {
  readonly socket: Socket;
  readonly chat = new LiveMessageList<MessageRecord>();
  /** Every event the server sent, in order. */
  readonly received: Array<[event: string, payload: unknown]> = [];
  allowClicks: boolean | null = null;
  videoStatus: VideoStatus | null = null;
  reconnects = 0;
  lastConnectAt = 0;
  private sessionId: string | null = null;

  constructor(url: string, options: ConnectOptions = {}) {
    const extraHeaders: Record<string, string> = {};
    if (options.origin) extraHeaders.origin = options.origin;
    if (options.cookie) extraHeaders.cookie = `accessToken=${options.cookie}`;
    this.socket = io(url, {
      path: REALTIME_PATH,
      transports: ['websocket'],
      auth: options.token ? { token: options.token } : {},
      extraHeaders,
      forceNew: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 2000,
      timeout: 5000,
    });
    this.socket.onAny((event: string, payload: unknown) => this.received.push([event, payload]));
    this.socket.on('message', (answer: Ack<MessageRecord[]>) =>
      this.chat.receivedList(answer.status === 'SUCCESS' ? answer.res : undefined),
    );
    this.socket.on('messageAdded', ({ message }: ServerPayloadOf<'messageAdded'>) =>
      this.chat.receivedAdded(message),
    );
    this.socket.on(
      'participantClicksToggled',
      ({ allowClicks }: ServerPayloadOf<'participantClicksToggled'>) => {
        this.allowClicks = allowClicks;
      },
    );
    this.socket.on('videoStatus', (status: VideoStatus) => {
      this.videoStatus = status;
    });
    this.socket.on('disconnect', () => this.chat.disconnected());
    this.socket.io.on('reconnect', () => {
      this.reconnects += 1;
    });
    this.socket.on('connect', () => {
      this.lastConnectAt = Date.now();
      if (this.sessionId && this.reconnects > 0) void this.ask('sync', { sessionId: this.sessionId }, 10_000);
    });
  }

  /** Connected, or the server's refusal as an Error (connect_error). */
  connected(timeoutMs = 5000): Promise<this> {
    if (this.socket.connected) return Promise.resolve(this);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no connection')), timeoutMs);
      this.socket.once('connect', () => {
        clearTimeout(timer);
        resolve(this);
      });
      this.socket.once('connect_error', (error: Error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Joins a session's room (initMessage); the client re-syncs it after every reconnect. */
  async join(sessionId: string): Promise<Ack<MessageRecord[]>> {
    this.sessionId = sessionId;
    return this.ask('initMessage', { sessionId });
  }

  /** Emits an event and waits for its acknowledgement. */
  ask<E extends ClientEventName>(
    event: E,
    payload: unknown,
    timeoutMs = 5000,
  ): Promise<Ack<ClientEventAcks[E]>> {
    if (event === 'initMessage' || event === 'sync') this.chat.requested();
    return this.socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<Ack<ClientEventAcks[E]>>;
  }

  /**
   * A chat message as the web client sends it (README, "Client rules"): when no acknowledgement
   * comes, the message may still have been stored by a replica that died before telling anyone, so
   * the client asks for the list again, and the server re-announces the message to the room.
   */
  async say(
    sessionId: string,
    message: string,
    ackTimeoutMs = 5000,
  ): Promise<'acknowledged' | 'refused' | 'unanswered'> {
    try {
      const answer = await this.ask('message', { sessionId, message }, ackTimeoutMs);
      return answer.status === 'SUCCESS' ? 'acknowledged' : 'refused';
    } catch {
      await this.connected(10_000).catch(() => undefined);
      await this.ask('sync', { sessionId }, 10_000).catch(() => undefined);
      return 'unanswered';
    }
  }

  /** The payloads of one server event received so far. */
  payloadsOf<T = unknown>(event: string): T[] {
    return this.received.filter(([name]) => name === event).map(([, payload]) => payload as T);
  }

  texts(): string[] {
    return this.chat.messages.map((message) => message.message);
  }

  close(): void {
    this.socket.close();
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
