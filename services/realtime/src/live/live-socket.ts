import type { AuthUser } from '@uis/kit';
import type { ClientToServerEvents, ServerToClientEvents } from '@uis/proto';
import type { Server, Socket } from 'socket.io';

/** What the handshake attaches to a socket: the signed-in user it acts for. */
export interface LiveSocketData {
  user: AuthUser;
}

/** Replicas talk through the adapter only; they send each other no events of their own. */
type NoInterServerEvents = Record<string, never>;

export type LiveServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  NoInterServerEvents,
  LiveSocketData
>;
export type LiveSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  NoInterServerEvents,
  LiveSocketData
>;

/** Everyone in a session: the owner and the participants who joined. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** The session owner's sockets (a researcher may have it open in two tabs). */
export const ownerRoom = (sessionId: string) => `session:${sessionId}:owner`;
