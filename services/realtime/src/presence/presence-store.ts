import type { ChainableCommander, Redis } from 'ioredis';
import type { ClientPayloadOf } from '@uis/proto';

/** What a participant's client last reported (see PresenceReportPayload), with when it came. */
export type PresenceReport = Omit<ClientPayloadOf<'presenceReport'>, 'sessionId'> & { receivedAt: number };

/** One connection of a participant to a session, as the monitor needs it. */
export interface SocketPresence {
  socketId: string;
  userId: string;
  /** When it joined the session (server epoch ms). */
  since: number;
  /** Its replica's last heartbeat for it. */
  lastSeen: number;
  /** When it left cleanly (a disconnect, or it left the room), else null. */
  endedAt: number | null;
  report: PresenceReport | null;
}

/** A participant of a session: who, when first, and how many joins. */
export interface PersonPresence {
  userId: string;
  name: string;
  email: string;
  firstJoined: number;
  joins: number;
}

/** Everything a session's presence holds, as one read. */
export interface SessionPresence {
  people: PersonPresence[];
  sockets: SocketPresence[];
}

export interface Joiner {
  socketId: string;
  userId: string;
  name: string;
  email: string;
}

/**
 * Who is in each session's room, across replicas: every replica writes its own sockets (a join, a
 * heartbeat every PRESENCE_HEARTBEAT_MS, the client's reports, a clean leave) and any replica reads
 * a session's whole presence. A replica that dies stops its heartbeats, so its sockets read as gone
 * PRESENCE_TTL_MS later: no ghosts. In Redis with REDIS_URL, else in this process.
 */
export interface PresenceStore {
  joined(sessionId: string, joiner: Joiner, now: number): Promise<void>;
  /** The heartbeat: these sockets of this replica are still in these sessions. */
  seen(sessionIds: ReadonlyMap<string, readonly string[]>, now: number): Promise<void>;
  report(sessionId: string, socketId: string, report: PresenceReport): Promise<void>;
  ended(sessionId: string, socketId: string, now: number): Promise<void>;
  read(sessionId: string): Promise<SessionPresence>;
}

export const PRESENCE = Symbol('PRESENCE');

/** A session's presence is forgotten this long after its last write (as the room state is). */
export const PRESENCE_KEEP_MS = 24 * 60 * 60 * 1000;

interface MemorySession {
  people: Map<string, PersonPresence>;
  sockets: Map<string, SocketPresence>;
}

/** One process: maps per session (kept while the process runs; a session's run is hours). */
export class MemoryPresence implements PresenceStore {
  private readonly sessions = new Map<string, MemorySession>();

  private session(sessionId: string): MemorySession {
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = { people: new Map(), sockets: new Map() }));
    return session;
  }

  joined(sessionId: string, { socketId, userId, name, email }: Joiner, now: number): Promise<void> {
    const { people, sockets } = this.session(sessionId);
    const person = people.get(userId);
    people.set(userId, {
      userId,
      name,
      email,
      firstJoined: person?.firstJoined ?? now,
      joins: (person?.joins ?? 0) + 1,
    });
    sockets.set(socketId, { socketId, userId, since: now, lastSeen: now, endedAt: null, report: null });
    return Promise.resolve();
  }

  seen(sessionIds: ReadonlyMap<string, readonly string[]>, now: number): Promise<void> {
    for (const [sessionId, socketIds] of sessionIds) {
      const { sockets } = this.session(sessionId);
      for (const socketId of socketIds) {
        const socket = sockets.get(socketId);
        if (socket) socket.lastSeen = now;
      }
    }
    return Promise.resolve();
  }

  report(sessionId: string, socketId: string, report: PresenceReport): Promise<void> {
    const socket = this.session(sessionId).sockets.get(socketId);
    if (socket) socket.report = report;
    return Promise.resolve();
  }

  ended(sessionId: string, socketId: string, now: number): Promise<void> {
    const socket = this.session(sessionId).sockets.get(socketId);
    if (socket) socket.endedAt = now;
    return Promise.resolve();
  }

  read(sessionId: string): Promise<SessionPresence> {
    const session = this.sessions.get(sessionId);
    return Promise.resolve({
      people: [...(session?.people.values() ?? [])].map((person) => ({ ...person })),
      sockets: [...(session?.sockets.values() ?? [])].map((socket) => ({ ...socket })),
    });
  }
}

/**
 * Per session, under `<prefix>:presence:<sessionId>:`, one key per part, so every write is one
 * command that needs no read first and two replicas never overwrite each other:
 * `seen` (sorted set: socket id by its last heartbeat), `sockets` (hash: socket id to its user and
 * join time), `ended`, `reports` (hashes by socket id), `people` (hash: user id to name and e-mail),
 * `first` (hash: first join, set once), `joins` (hash: a count per user).
 */
export class RedisPresence implements PresenceStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly keepMs = PRESENCE_KEEP_MS,
  ) {}

  async joined(sessionId: string, { socketId, userId, name, email }: Joiner, now: number): Promise<void> {
    const key = this.keys(sessionId);
    const transaction = this.redis
      .multi()
      .hset(key.people, userId, JSON.stringify({ name, email }))
      .hsetnx(key.first, userId, String(now))
      .hincrby(key.joins, userId, 1)
      .hset(key.sockets, socketId, JSON.stringify({ userId, since: now }))
      // A connection socket.io recovered keeps its id: it is back, not ended.
      .hdel(key.ended, socketId)
      .hdel(key.reports, socketId)
      .zadd(key.seen, now, socketId);
    await this.exec(this.expire(transaction, key));
  }

  async seen(sessionIds: ReadonlyMap<string, readonly string[]>, now: number): Promise<void> {
    if (sessionIds.size === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [sessionId, socketIds] of sessionIds) {
      if (socketIds.length === 0) continue;
      const key = this.keys(sessionId);
      pipeline.zadd(key.seen, ...socketIds.flatMap((socketId) => [now, socketId]));
      pipeline.pexpire(key.seen, this.keepMs);
    }
    await this.exec(pipeline);
  }

  async report(sessionId: string, socketId: string, report: PresenceReport): Promise<void> {
    const key = this.keys(sessionId);
    await this.exec(
      this.redis
        .multi()
        .hset(key.reports, socketId, JSON.stringify(report))
        .pexpire(key.reports, this.keepMs),
    );
  }

  async ended(sessionId: string, socketId: string, now: number): Promise<void> {
    const key = this.keys(sessionId);
    await this.exec(
      this.redis.multi().hset(key.ended, socketId, String(now)).pexpire(key.ended, this.keepMs),
    );
  }

  async read(sessionId: string): Promise<SessionPresence> {
    const key = this.keys(sessionId);
    const results = await this.exec(
      this.redis
        .multi()
        .hgetall(key.people)
        .hgetall(key.first)
        .hgetall(key.joins)
        .hgetall(key.sockets)
        .zrange(key.seen, 0, -1, 'WITHSCORES')
        .hgetall(key.ended)
        .hgetall(key.reports),
    );
    const [people, first, joins, sockets, seenList, ended, reports] = results as [
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
      string[],
      Record<string, string>,
      Record<string, string>,
    ];
    const seen = new Map<string, number>();
    for (let i = 0; i + 1 < seenList.length; i += 2) seen.set(seenList[i]!, Number(seenList[i + 1]));
    return {
      people: Object.entries(people).flatMap(([userId, json]) => {
        const who = parseJson<{ name: string; email: string }>(json);
        if (!who) return [];
        return [
          { userId, ...who, firstJoined: Number(first[userId] ?? 0), joins: Number(joins[userId] ?? 1) },
        ];
      }),
      sockets: Object.entries(sockets).flatMap(([socketId, json]) => {
        const socket = parseJson<{ userId: string; since: number }>(json);
        if (!socket) return [];
        return [
          {
            socketId,
            ...socket,
            lastSeen: seen.get(socketId) ?? socket.since,
            endedAt: ended[socketId] ? Number(ended[socketId]) : null,
            report: reports[socketId] ? parseJson<PresenceReport>(reports[socketId]) : null,
          },
        ];
      }),
    };
  }

  private keys(sessionId: string) {
    const base = `${this.prefix}:presence:${sessionId}:`;
    return {
      seen: `${base}seen`,
      sockets: `${base}sockets`,
      ended: `${base}ended`,
      reports: `${base}reports`,
      people: `${base}people`,
      first: `${base}first`,
      joins: `${base}joins`,
    };
  }

  private expire<T extends ChainableCommander>(transaction: T, key: ReturnType<RedisPresence['keys']>): T {
    for (const name of Object.values(key)) transaction.pexpire(name, this.keepMs);
    return transaction;
  }

  /** The replies, or the first command's error thrown. */
  private async exec(batch: ChainableCommander): Promise<unknown[]> {
    const results = (await batch.exec()) ?? [];
    const failed = results.find(([error]) => error)?.[0];
    if (failed) throw failed;
    return results.map(([, value]) => value);
  }
}

/** A field written by another version that does not parse reads as missing, not as a crash. */
function parseJson<T>(json: string): T | null {
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}
