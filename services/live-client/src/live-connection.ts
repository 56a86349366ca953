import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import {
  ERROR_CODES,
  LiveMessageList,
  REALTIME_CONNECT_TIMEOUT_MS,
  REALTIME_PATH,
  REALTIME_RECONNECT_ATTEMPTS,
  REALTIME_RECONNECT_DELAY_MAX_MS,
  REALTIME_RECONNECT_DELAY_MS,
  REALTIME_TRANSPORTS,
  STATUS,
} from '@uis/proto/browser';
import type {
  Ack,
  ClientEventAcks,
  ClientEventName,
  ClientPayloadOf,
  ClientToServerEvents,
  MessageRecord,
  ServerPayloadOf,
  ServerToClientEvents,
  SessionState,
} from '@uis/proto';
import { ServerClock, clientNow } from './server-clock';

/** When an acknowledgement of a chat message has not come by then, the client resyncs (client rule 3 in services/realtime/README.md). */
export const ACK_TIMEOUT_MS = 10_000;
/** The access token is renewed this long before it expires (halfway, for one that lives less than twice this). */
export const RENEW_BEFORE_EXPIRY_MS = 60_000;
/** Clock samples taken on each connect, and every CLOCK_SYNC_EVERY_MS after (the best recent one counts). */
const CLOCK_SAMPLES_ON_CONNECT = 5;
const CLOCK_SAMPLES_LATER = 2;
export const CLOCK_SYNC_EVERY_MS = 30_000;
const CLOCK_TIMEOUT_MS = 5_000;
/** A gap left by a long absence is filled a page at a time, at most this many pages. */
const MAX_GAP_PAGES = 100;

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface LiveConnectionOptions {
  /** Where realtime answers (http://host:port); none in the browser, which uses its own origin. */
  url?: string;
  /**
   * The access token to connect with, asked on every (re)connect so a renewed one is used. A browser
   * on the same origin may answer undefined: the accessToken cookie goes with the WebSocket.
   */
  accessToken: () => string | undefined;
  /**
   * Renews the access token over REST (the refresh token): before the token expires, and when the
   * server ends the connection because it did. Answers the new token, or undefined when signed out.
   */
  renewAccessToken?: () => Promise<string | undefined>;
  /** Headers a browser would send (Origin, Cookie): for clients that are not browsers (tests). */
  extraHeaders?: Record<string, string>;
  ackTimeoutMs?: number;
  /** socket.io-client options over the spec's defaults (tests: shorter reconnection delays). */
  socket?: Partial<ManagerOptions & SocketOptions>;
}

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'ended';

/** Why a connection ended or was refused: the server's code (proto's ERROR_CODES) and message. */
export interface LiveProblem {
  code: string;
  message: string;
}

/** What a screen shows of the live session; a new object on every change (for React's useSyncExternalStore). */
export interface LiveState {
  status: ConnectionStatus;
  /** Why the connection ended or was refused (the server's message and code). */
  problem: LiveProblem | null;
  /** The session's chat in list order (LiveMessageList). */
  messages: readonly MessageRecord[];
  /** Older messages exist on the server (loadOlder fetches a page). */
  hasOlder: boolean;
  /** The last list request was answered with the error marker ('Error fetching chat messages'). */
  listFailed: boolean;
  allowClicks: boolean;
  /** The researcher removed this user from the session, or deleted it: the server's words. */
  accessEnded: string | null;
  /** The researcher ended the session (sessionEnded): where participants go next, if anywhere. */
  ended: { completionUrl: string | null } | null;
  /**
   * Where the joined session is in its life (sessionState), null before the server said: a
   * participant waits while it has not started; 'ended' when a join or resync found it closed.
   */
  sessionState: SessionState | null;
}

export type SendOutcome =
  | { kind: 'acknowledged'; message: MessageRecord }
  | { kind: 'refused'; message: string; code: string }
  | { kind: 'unanswered' };

/** The `exp` of a JWT in epoch ms, read without checking it (the server checks). */
function expiryOf(token: string | undefined): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The state before the first connection, and the shape every later one keeps. */
export const INITIAL_LIVE_STATE: Readonly<LiveState> = {
  status: 'connecting',
  problem: null,
  messages: [],
  hasOlder: false,
  listFailed: false,
  allowClicks: false,
  accessEnded: null,
  ended: null,
  sessionState: null,
};

/**
 * The live session's socket, owned by one plain class that the browser, realtime's tests and its
 * benchmarks all use, so what is tested and measured is what the browser runs. It follows
 * services/realtime/README.md's client rules: the chat kept with LiveMessageList; `sync` after every
 * reconnect (the gap of a long absence filled with `history`); a resync when a message's
 * acknowledgement does not come; the access token renewed before it expires (`renewToken`), and
 * again when the server ends the connection for it. React subscribes to its state.
 */
export class LiveConnection {
  readonly socket: LiveSocket;
  /** The server's clock (synced on every connect, then every CLOCK_SYNC_EVERY_MS). */
  readonly clock = new ServerClock();
  private clockTimer: ReturnType<typeof setInterval> | undefined;
  private readonly chat = new LiveMessageList<MessageRecord>();
  private readonly listeners = new Set<(state: LiveState) => void>();
  private snapshot: LiveState = { ...INITIAL_LIVE_STATE };
  private sessionId: string | null = null;
  private connectedBefore = false;
  private renewalTimer: ReturnType<typeof setTimeout> | undefined;
  private fillingGap = false;
  private readonly ackTimeoutMs: number;

  constructor(private readonly options: LiveConnectionOptions) {
    this.ackTimeoutMs = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
    const socketOptions: Partial<ManagerOptions & SocketOptions> = {
      path: REALTIME_PATH,
      transports: [...REALTIME_TRANSPORTS],
      timeout: REALTIME_CONNECT_TIMEOUT_MS,
      reconnectionDelay: REALTIME_RECONNECT_DELAY_MS,
      reconnectionDelayMax: REALTIME_RECONNECT_DELAY_MAX_MS,
      reconnectionAttempts: REALTIME_RECONNECT_ATTEMPTS,
      auth: (send) => {
        const token = options.accessToken();
        send(token ? { token } : {});
      },
      extraHeaders: options.extraHeaders,
      ...options.socket,
    };
    this.socket = options.url ? io(options.url, socketOptions) : io(socketOptions);
    this.wire();
  }

  get state(): LiveState {
    return this.snapshot;
  }

  /** Hears every change of the state; answers how to stop. */
  subscribe(listener: (state: LiveState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A server event, as it comes (the video status, the call's peer ids, the researcher's sync requests). */
  on<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]): () => void {
    // socket.io's typings cannot relate a generic event name to its listener.
    (this.socket.on as (name: string, listener: unknown) => void)(event, handler);
    return () => (this.socket.off as (name: string, listener: unknown) => void)(event, handler);
  }

  /** Connected, or the server's refusal as an Error (its `data.code` says why). */
  connected(timeoutMs = REALTIME_CONNECT_TIMEOUT_MS): Promise<this> {
    if (this.socket.connected) return Promise.resolve(this);
    // An ended connection never connects again: say why now rather than after the timeout.
    const { status, problem } = this.snapshot;
    if (status === 'ended') {
      const error = new Error(problem?.message ?? 'The connection was closed.') as Error & {
        data?: { code: string };
      };
      if (problem) error.data = { code: problem.code };
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        this.socket.off('connect', onConnect);
        this.socket.off('connect_error', done);
        if (error) reject(error);
        else resolve(this);
      };
      const onConnect = () => done();
      const timer = setTimeout(() => done(new Error('no connection')), timeoutMs);
      this.socket.once('connect', onConnect);
      this.socket.once('connect_error', done);
    });
  }

  /** Joins a session (initMessage) and keeps it: after every reconnect the client syncs it again. */
  join(sessionId: string): Promise<Ack<MessageRecord[]>> {
    this.sessionId = sessionId;
    return this.requestList('initMessage');
  }

  /** Emits an event and waits for its acknowledgement; rejects when none comes in `timeoutMs`. */
  ask<E extends ClientEventName>(
    event: E,
    payload: ClientPayloadOf<E>,
    timeoutMs = this.ackTimeoutMs,
  ): Promise<Ack<ClientEventAcks[E]>> {
    // socket.io's typings cannot relate a generic event name to its payload. Called on the socket,
    // not detached from it: emitWithAck needs its `this`.
    const socket = this.socket.timeout(timeoutMs) as unknown as {
      emitWithAck(name: E, payload: ClientPayloadOf<E>): Promise<Ack<ClientEventAcks[E]>>;
    };
    return socket.emitWithAck(event, payload);
  }

  /**
   * A chat message (a reaction: with its action's id). When no acknowledgement comes, it may still
   * have been stored by a replica that died before telling anyone: the client asks for the list
   * again (the server then re-announces the author's recent messages to the room), so it is never
   * lost from view.
   */
  async send(message: string, actionId?: string): Promise<SendOutcome> {
    const sessionId = this.requireSession();
    try {
      const answer = await this.ask(
        'message',
        actionId ? { sessionId, message, actionId } : { sessionId, message },
      );
      return answer.status === STATUS.SUCCESS
        ? { kind: 'acknowledged', message: answer.res }
        : { kind: 'refused', message: answer.res.message, code: answer.res.code };
    } catch {
      if (this.snapshot.status !== 'ended') {
        await this.connected().catch(() => undefined);
        await this.requestList('sync').catch(() => undefined);
      }
      return { kind: 'unanswered' };
    }
  }

  /** One more page of older messages, when the server has some. */
  async loadOlder(): Promise<void> {
    const oldest = this.chat.oldest;
    if (!this.chat.hasOlder || !oldest) return;
    const answer = await this.ask('history', { sessionId: this.requireSession(), before: oldest.message_id });
    if (answer.status === STATUS.SUCCESS) {
      this.chat.receivedOlder(answer.res.messages, answer.res.hasMore);
      this.publish({});
    }
  }

  /**
   * The researcher ends the session's run (owner only). Accepted, this connection ends as the
   * others' do on `sessionEnded`; refused, the server's words are the answer and nothing changed.
   */
  async endSession(): Promise<Ack<ClientEventAcks['endSession']>> {
    const answer = await this.ask('endSession', { sessionId: this.requireSession() });
    if (answer.status === STATUS.SUCCESS)
      this.end(null, { ended: { completionUrl: answer.res.completionUrl } });
    return answer;
  }

  /**
   * The researcher reopens the session that ended (owner only; the playback log records it), then
   * joins it again on this connection. Refused, the server's words are the answer.
   */
  async reopen(): Promise<Ack<null>> {
    const sessionId = this.requireSession();
    const answer = await this.ask('reopenSession', { sessionId });
    if (answer.status !== STATUS.SUCCESS) return answer;
    const joined = await this.join(sessionId);
    return joined.status === STATUS.SUCCESS ? { status: STATUS.SUCCESS, res: null } : joined;
  }

  /** Leaves: no more reconnects, renewals or events. */
  close(): void {
    this.end(null);
  }

  private wire(): void {
    const { socket } = this;
    socket.on('connect', () => {
      const reconnect = this.connectedBefore;
      this.connectedBefore = true;
      this.publish({ status: 'connected', problem: null });
      this.scheduleRenewal();
      void this.syncClock(CLOCK_SAMPLES_ON_CONNECT);
      if (reconnect && this.sessionId) void this.requestList('sync').catch(() => undefined);
    });
    socket.on('disconnect', () => {
      this.chat.disconnected();
      if (this.snapshot.status !== 'ended') this.publish({ status: 'reconnecting' });
    });
    socket.on('connect_error', (error: Error & { data?: { code?: string } }) => {
      const code = error.data?.code;
      // A refusal by the server (not a network failure) is not retried by socket.io on its own.
      if (code === undefined) {
        return this.publish({ status: this.connectedBefore ? 'reconnecting' : 'connecting' });
      }
      if (code === ERROR_CODES.UNAUTHENTICATED) {
        return void this.renewAndReconnect({ code, message: error.message }, Promise.resolve());
      }
      this.end({ code, message: error.message });
    });
    socket.on('connectionEnded', (why) => {
      if (why.code !== ERROR_CODES.UNAUTHENTICATED) return this.end(why);
      // The server disconnects right after this event. Connecting again before that disconnect is
      // handled is a no-op (the socket is still connected), and the disconnect then leaves the
      // client without a connection: a renewal answered from memory is that fast.
      const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      void this.renewAndReconnect(why, disconnected);
    });
    socket.on('accessEnded', ({ sessionId, message }) => {
      if (sessionId !== this.sessionId) return;
      this.end({ code: ERROR_CODES.FORBIDDEN, message }, { accessEnded: message });
    });
    // The run is over: no reconnects or resyncs (a new page load joins the next run).
    socket.on('sessionEnded', ({ sessionId, completionUrl }) => {
      if (sessionId !== this.sessionId) return;
      this.end(null, { ended: { completionUrl } });
    });
    socket.on('sessionState', ({ sessionId, state }) => {
      if (sessionId === this.sessionId) this.publish({ sessionState: state });
    });
    socket.on('message', (answer) => {
      if (answer.status === STATUS.SUCCESS) {
        this.chat.receivedList(answer.res);
        this.publish({ listFailed: false });
        void this.fillGap();
      } else if (answer.res.code === ERROR_CODES.SESSION_ENDED) {
        // Not a failure to fetch: the session is closed (the join's answer says so too).
        this.publish({ sessionState: 'ended' });
      } else {
        this.chat.receivedList(undefined);
        this.publish({ listFailed: true });
      }
    });
    socket.on('messageAdded', ({ sessionId, message }) => {
      if (sessionId !== this.sessionId) return;
      this.chat.receivedAdded(message);
      this.publish({});
    });
    socket.on('participantClicksToggled', ({ sessionId, allowClicks }) => {
      if (sessionId === this.sessionId) this.publish({ allowClicks });
    });
  }

  private async requestList(event: 'initMessage' | 'sync'): Promise<Ack<MessageRecord[]>> {
    this.chat.requested();
    const answer = await this.ask(event, { sessionId: this.requireSession() });
    // Closed while away (or before): the room is gone; the connection stays, so its researcher may reopen it.
    if (answer.status !== STATUS.SUCCESS && answer.res.code === ERROR_CODES.SESSION_ENDED) {
      this.publish({ sessionState: 'ended' });
    }
    return answer;
  }

  /** After a long absence the newest page may not reach what the client had: fetch pages back to it. */
  private async fillGap(): Promise<void> {
    if (this.fillingGap) return;
    this.fillingGap = true;
    try {
      for (let pages = 0; pages < MAX_GAP_PAGES; pages += 1) {
        const gap = this.chat.gapBefore;
        if (!gap || !this.sessionId) return;
        const answer = await this.ask('history', { sessionId: this.sessionId, before: gap.message_id });
        if (answer.status !== STATUS.SUCCESS) return;
        this.chat.receivedOlder(answer.res.messages, answer.res.hasMore);
        this.publish({});
      }
    } catch {
      // The connection dropped: the resync after the reconnect starts over.
    } finally {
      this.fillingGap = false;
    }
  }

  /**
   * Renews `token` (the one the connection now holds) a minute before it expires, or halfway
   * through its life when it lives less than two minutes: a short-lived token renewed "a minute
   * before" would be renewed at once, and again, in a loop.
   */
  private scheduleRenewal(token = this.options.accessToken()): void {
    clearTimeout(this.renewalTimer);
    const expiresAt = expiryOf(token);
    const renew = this.options.renewAccessToken;
    if (expiresAt === null || !renew) return;
    const left = expiresAt - Date.now();
    const delay = Math.max(0, left - RENEW_BEFORE_EXPIRY_MS, left / 2);
    this.renewalTimer = setTimeout(() => {
      void renew()
        .then(async (renewed) => {
          if (!renewed || !this.socket.connected) return;
          const answer = await this.ask('renewToken', { token: renewed });
          // Refused: the server ends the connection when the old token expires, and the client
          // renews and connects again then (connectionEnded).
          if (answer.status === STATUS.SUCCESS) this.scheduleRenewal(renewed);
        })
        .catch(() => undefined);
    }, delay);
  }

  private async renewAndReconnect(why: LiveProblem, disconnected: Promise<void>): Promise<void> {
    const [token] = await Promise.all([
      this.options.renewAccessToken?.().catch(() => undefined),
      disconnected,
    ]);
    if (this.snapshot.status === 'ended') return; // closed meanwhile
    if (!token) return this.end(why);
    this.publish({ status: 'reconnecting' });
    this.socket.connect();
  }

  /** A few `clock` samples, one after the other (each round trip alone is what is measured). */
  private async syncClock(samples: number): Promise<void> {
    try {
      for (let i = 0; i < samples && this.socket.connected; i += 1) {
        const sentAt = clientNow();
        const answer = await this.ask('clock', {}, CLOCK_TIMEOUT_MS);
        if (answer.status === STATUS.SUCCESS) this.clock.sample(sentAt, answer.res.serverTime, clientNow());
      }
    } catch {
      // No answer in time: the next sync tries again.
    }
    clearInterval(this.clockTimer);
    if (this.snapshot.status !== 'ended') {
      this.clockTimer = setInterval(() => void this.syncClock(CLOCK_SAMPLES_LATER), CLOCK_SYNC_EVERY_MS);
    }
  }

  /** Ended first, then closed: the disconnect that closing causes must not read as 'reconnecting'. */
  private end(problem: LiveProblem | null, change: Partial<LiveState> = {}): void {
    clearTimeout(this.renewalTimer);
    clearInterval(this.clockTimer);
    if (this.snapshot.status !== 'ended') this.publish({ ...change, status: 'ended', problem });
    this.socket.close();
  }

  private requireSession(): string {
    if (!this.sessionId) throw new Error('join a session first');
    return this.sessionId;
  }

  private publish(change: Partial<LiveState>): void {
    this.snapshot = {
      ...this.snapshot,
      ...change,
      messages: this.chat.messages,
      hasOlder: this.chat.hasOlder,
    };
    for (const listener of this.listeners) listener(this.snapshot);
  }
}

/** The payload a server event carries (for screens that handle the raw events). */
export type LivePayloadOf<E extends keyof ServerToClientEvents> = ServerPayloadOf<E>;
