import type { Redis } from 'ioredis';
import { ExpiringMap } from '@uis/kit';
import { z } from 'zod';

/** The researcher's last video status, with the server time it held at (to answer a late sync). */
export interface StoredVideoStatus {
  paused: boolean;
  currentTime: number;
  playbackRate: number;
  /** Server epoch milliseconds when the video was at currentTime. */
  at: number;
}

/** What a session's live room remembers between events, so any replica can answer a sync. */
export interface LiveRoomState {
  allowClicks: boolean;
  videoStatus: StoredVideoStatus | null;
  researcherPeerId: string | null;
}

export const EMPTY_ROOM: LiveRoomState = { allowClicks: false, videoStatus: null, researcherPeerId: null };

/**
 * A room's state outlives its last event this long, then it is forgotten (a session is live for
 * hours, not days): the store never grows with the number of sessions ever run.
 */
export const ROOM_STATE_TTL_MS = 24 * 60 * 60 * 1000;

/** The live state of every session's room: in Redis with REDIS_URL (shared by replicas), else in memory. */
export interface RoomStateStore {
  read(sessionId: string): Promise<LiveRoomState>;
  /** Sets the given fields, keeps the others. */
  update(sessionId: string, change: Partial<LiveRoomState>): Promise<void>;
  /** Marks a prompt fired in this run of the session: true only the first time (atomic across replicas). */
  markPromptFired(sessionId: string, promptId: string): Promise<boolean>;
  /** The run ended: everything of the room is forgotten (clicks off, no status or peer id, no prompt fired). */
  reset(sessionId: string): Promise<void>;
}

export const ROOM_STATE = Symbol('ROOM_STATE');

/** One process: a map, each entry forgotten ROOM_STATE_TTL_MS after its last update. */
export class MemoryRoomState implements RoomStateStore {
  private readonly rooms: ExpiringMap<LiveRoomState>;

  constructor(ttlMs = ROOM_STATE_TTL_MS) {
    this.rooms = new ExpiringMap(ttlMs);
  }

  read(sessionId: string): Promise<LiveRoomState> {
    return Promise.resolve({ ...(this.rooms.get(sessionId) ?? EMPTY_ROOM) });
  }

  async update(sessionId: string, change: Partial<LiveRoomState>): Promise<void> {
    this.rooms.set(sessionId, { ...(await this.read(sessionId)), ...change });
  }

  private readonly firedPrompts = new ExpiringMap<Set<string>>(ROOM_STATE_TTL_MS);

  markPromptFired(sessionId: string, promptId: string): Promise<boolean> {
    const fired = this.firedPrompts.get(sessionId) ?? new Set<string>();
    const first = !fired.has(promptId);
    fired.add(promptId);
    this.firedPrompts.set(sessionId, fired);
    return Promise.resolve(first);
  }

  reset(sessionId: string): Promise<void> {
    this.rooms.delete(sessionId);
    this.firedPrompts.delete(sessionId);
    return Promise.resolve();
  }
}

const StoredVideoStatusJson = z.object({
  paused: z.boolean(),
  currentTime: z.number(),
  // Written before rates were kept: 1.
  playbackRate: z.number().default(1),
  at: z.number(),
});

/**
 * A hash per session (`<prefix>:room:<sessionId>`), one field per part of the state. A field that
 * does not parse (written by some other version) reads as unset rather than breaking the room.
 */
export class RedisRoomState implements RoomStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs = ROOM_STATE_TTL_MS,
  ) {}

  async read(sessionId: string): Promise<LiveRoomState> {
    const fields = await this.redis.hgetall(this.key(sessionId));
    return {
      allowClicks: fields.allowClicks === '1',
      videoStatus: parseVideoStatus(fields.videoStatus),
      researcherPeerId: fields.researcherPeerId || null,
    };
  }

  async update(sessionId: string, change: Partial<LiveRoomState>): Promise<void> {
    const set: Record<string, string> = {};
    const unset: string[] = [];
    if (change.allowClicks !== undefined) set.allowClicks = change.allowClicks ? '1' : '0';
    if (change.videoStatus !== undefined) {
      if (change.videoStatus) set.videoStatus = JSON.stringify(change.videoStatus);
      else unset.push('videoStatus');
    }
    if (change.researcherPeerId !== undefined) {
      if (change.researcherPeerId) set.researcherPeerId = change.researcherPeerId;
      else unset.push('researcherPeerId');
    }
    const key = this.key(sessionId);
    const transaction = this.redis.multi();
    if (Object.keys(set).length > 0) transaction.hset(key, set);
    if (unset.length > 0) transaction.hdel(key, ...unset);
    transaction.pexpire(key, this.ttlMs);
    const results = await transaction.exec();
    const failed = results?.find(([error]) => error)?.[0];
    if (failed) throw failed;
  }

  async markPromptFired(sessionId: string, promptId: string): Promise<boolean> {
    const key = this.promptsKey(sessionId);
    const results = await this.redis.multi().sadd(key, promptId).pexpire(key, this.ttlMs).exec();
    const [error, added] = results?.[0] ?? [new Error('no answer from Redis')];
    if (error) throw error;
    return added === 1;
  }

  /** One DEL of both keys: atomic, so no replica reads half a reset room. */
  async reset(sessionId: string): Promise<void> {
    await this.redis.del(this.key(sessionId), this.promptsKey(sessionId));
  }

  private key(sessionId: string): string {
    return `${this.prefix}:room:${sessionId}`;
  }

  private promptsKey(sessionId: string): string {
    return `${this.key(sessionId)}:prompts`;
  }
}

function parseVideoStatus(json: string | undefined): StoredVideoStatus | null {
  if (!json) return null;
  try {
    const parsed = StoredVideoStatusJson.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
