import { Inject, Injectable } from '@nestjs/common';
import { AppError, LOGGER, describeIssues, type Logger } from '@uis/kit';
import {
  ERROR_CODES,
  ackError,
  ackOk,
  clientEventSchemas,
  type Ack,
  type ClientEventAcks,
  type ClientEventName,
  type ErrorCode,
  type ParsedClientPayloadOf,
} from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { REALTIME_TEXTS as TEXTS } from '../realtime.texts';
import { LiveConnections } from './live-connections';
import type { LiveSocket } from './live-socket';
import { LiveSessionService, type LiveHandler } from './live-session.service';

/** Events whose answer is the chat list: on failure the client also gets `message` with the error marker. */
const LIST_EVENTS: ReadonlySet<ClientEventName> = new Set(['initMessage', 'sync']);

/** Events a socket may have waiting; beyond that it is sending faster than anyone types or clicks. */
export const MAX_QUEUED_EVENTS = 100;

/**
 * Every client event goes through `answer`: the connection must still be valid (token current, not
 * revoked), its payload is validated with proto's schema, the session's rules run, and the result
 * becomes the acknowledgement. Nothing a client sends can throw past here: a refusal or a failure is
 * an error acknowledgement with a message that says why and the code a REST answer would carry.
 */
@Injectable()
export class LiveEvents {
  private readonly handlers: { [E in ClientEventName]: LiveHandler<E> };
  /** The last event of each socket still being handled, for `answer` to queue behind. */
  private readonly queues = new WeakMap<LiveSocket, { last: Promise<unknown>; waiting: number }>();

  constructor(
    live: LiveSessionService,
    private readonly connections: LiveConnections,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.handlers = {
      initMessage: live.join,
      sync: live.join,
      message: live.message,
      videoStatus: live.videoStatus,
      syncVideoStatus: live.syncVideoStatus,
      toggleParticipantClicks: live.toggleParticipantClicks,
      clickVideo: live.clickVideo,
      joinVideoChat: live.joinVideoChat,
      syncVideoChat: live.syncVideoChat,
      history: live.history,
      renewToken: (socket, { token }) => connections.renew(socket, token),
      clock: live.clock,
      firePrompt: live.firePrompt,
      presenceReport: live.presenceReport,
      monitor: live.monitor,
      endSession: live.endSession,
      reopenSession: live.reopenSession,
      exposure: live.exposureReport,
    };
  }

  /**
   * A socket's events run one after the other, in the order it sent them: two messages typed in
   * quick succession are stored (and so listed) in that order, a pause after a seek stays after it.
   */
  answer<E extends ClientEventName>(
    socket: LiveSocket,
    event: E,
    payload: unknown,
  ): Promise<Ack<ClientEventAcks[E]>> {
    // A clock sample measures the network's round trip, not the socket's queue: answered at once
    // (it reads nothing and changes nothing, so its order does not matter).
    if (event === 'clock') return this.handle(socket, event, payload);
    const queue = this.queues.get(socket) ?? { last: Promise.resolve(), waiting: 0 };
    // A client that sends faster than it is served is refused, not queued without bound.
    if (queue.waiting >= MAX_QUEUED_EVENTS) {
      return Promise.resolve(this.refuse(socket, event, TEXTS.tooFast, ERROR_CODES.RATE_LIMITED));
    }
    queue.waiting += 1;
    const answered = queue.last.then(async () => {
      try {
        return await this.handle(socket, event, payload);
      } finally {
        queue.waiting -= 1;
      }
    });
    queue.last = answered;
    this.queues.set(socket, queue);
    return answered;
  }

  /** Never rejects: every failure is an error acknowledgement. */
  private async handle<E extends ClientEventName>(
    socket: LiveSocket,
    event: E,
    payload: unknown,
  ): Promise<Ack<ClientEventAcks[E]>> {
    try {
      // A renewal may rescue a connection whose token just ran out; every other event needs a valid one.
      if (event !== 'renewToken' && !this.connections.stillValid(socket)) {
        return this.refuse(socket, event, TEXTS.expired, ERROR_CODES.UNAUTHENTICATED);
      }
      const parsed = clientEventSchemas[event].safeParse(payload);
      if (!parsed.success) return this.refuse(socket, event, describeIssues(parsed.error).message);
      const handler = this.handlers[event] as LiveHandler<E>;
      return ackOk(await handler(socket, parsed.data as ParsedClientPayloadOf<E>));
    } catch (error) {
      const { message, code } = this.explain(error, socket, event);
      return this.refuse(socket, event, message, code);
    }
  }

  private refuse(
    socket: LiveSocket,
    event: ClientEventName,
    message: string,
    code: ErrorCode = ERROR_CODES.VALIDATION,
  ): Ack<never> {
    const answer = ackError(message, code);
    if (LIST_EVENTS.has(event)) socket.emit('message', answer);
    return answer;
  }

  /** A refusal's own message and code; for a failure of ours, a plain one (the details go to the log). */
  private explain(
    error: unknown,
    socket: LiveSocket,
    event: ClientEventName,
  ): { message: string; code: ErrorCode } {
    if (error instanceof AppError && error.httpStatus < 500) {
      return { message: error.message, code: error.code };
    }
    if (error instanceof AppError) {
      this.logger.warn({ event, userId: socket.data.user.id, err: error.message }, 'live event failed');
      return { message: TEXTS.unavailable, code: ERROR_CODES.UNAVAILABLE };
    }
    const errorId = randomUUID();
    this.logger.error({ event, userId: socket.data.user.id, errorId, err: error }, 'live event crashed');
    return { message: TEXTS.crashed(errorId), code: ERROR_CODES.INTERNAL };
  }
}
