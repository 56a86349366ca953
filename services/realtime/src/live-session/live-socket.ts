import type { AuthUser } from '@uis/kit';
import type { ClientToServerEvents, ServerToClientEvents } from '@uis/proto';
import type { Server, Socket } from 'socket.io';

/** What the handshake attaches to a socket: the signed-in user it acts for, and its token's times. */
export interface LiveSocketData {
  user: AuthUser;
  /** Epoch ms: a user revocation covers the tokens issued before it. */
  issuedAt: number;
  /** Epoch ms: the connection ends then, unless the client renews its token (renewToken). */
  expiresAt: number;
}

/** What replicas tell each other through the adapter (besides the broadcasts themselves). */
export interface LiveInterServerEvents {
  /** Studies said who may be in these sessions changed: each replica checks its own sockets. */
  sessionAccessChanged: (sessionIds: string[], deleted: boolean) => void;
  /** The researcher ended this session: each replica tells its own sockets and closes the room. */
  sessionEnded: (sessionId: string, completionUrl: string | null) => void;
}

export type LiveServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  LiveInterServerEvents,
  LiveSocketData
>;
export type LiveSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  LiveInterServerEvents,
  LiveSocketData
>;

/** Everyone in a session: the owner and the participants who joined. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** The session owner's sockets (a researcher may have it open in two tabs). */
export const ownerRoom = (sessionId: string) => `session:${sessionId}:owner`;
/** Whether a room name is a session's room (not its owner room, nor a socket's own room). */
export const isSessionRoom = (room: string) => room.startsWith('session:') && !room.endsWith(':owner');
