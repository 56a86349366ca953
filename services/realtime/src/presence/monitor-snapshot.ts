import { PRESENCE_TTL_MS, type MonitorSnapshot, type MonitoredParticipant } from '@uis/proto';
import type { StoredVideoStatus } from '../room-state/room-state';
import { positionAt } from '../live-session/playback-log';
import type { SessionPresence, SocketPresence } from './presence-store';

const alive = (socket: SocketPresence, now: number) =>
  socket.endedAt === null && now - socket.lastSeen <= PRESENCE_TTL_MS;

/** When a connection ended: its clean leave, or (its replica died) its last heartbeat. */
const endOf = (socket: SocketPresence) => socket.endedAt ?? socket.lastSeen;

/**
 * The researcher's monitor from a session's presence: one row per participant, connected ones first
 * (by name), then those who left (the latest first). A participant's drift is their player's last
 * reported position against where the researcher's status had the video at the same server time.
 */
export function monitorSnapshot(
  presence: SessionPresence,
  researcher: StoredVideoStatus | null,
  now: number,
): MonitorSnapshot {
  const socketsOf = new Map<string, SocketPresence[]>();
  for (const socket of presence.sockets) {
    const list = socketsOf.get(socket.userId) ?? [];
    list.push(socket);
    socketsOf.set(socket.userId, list);
  }
  const participants = presence.people.map((person): MonitoredParticipant => {
    const sockets = socketsOf.get(person.userId) ?? [];
    const live = sockets.filter((socket) => alive(socket, now));
    const connected = live.length > 0;
    // The newest report of a live connection (a second tab may report too).
    const report = live
      .map((socket) => socket.report)
      .filter((r) => r !== null)
      .sort((a, b) => b.receivedAt - a.receivedAt)[0];
    const playback = report?.playback
      ? {
          ...report.playback,
          driftMs: researcher
            ? Math.round((report.playback.currentTime - positionAt(researcher, report.playback.at)) * 1000)
            : null,
        }
      : null;
    return {
      userId: person.userId,
      name: person.name,
      email: person.email,
      connected,
      since: connected ? Math.min(...live.map((socket) => socket.since)) : null,
      firstJoined: person.firstJoined,
      reconnects: Math.max(0, person.joins - 1),
      leftAt: connected || sockets.length === 0 ? null : Math.max(...sockets.map(endOf)),
      playback,
      call: report?.call ?? null,
      // A client before these were reported says nothing of them: unknown, not false.
      sound: report?.sound ?? null,
      visible: report?.visible ?? null,
    };
  });
  participants.sort((a, b) =>
    a.connected !== b.connected
      ? a.connected
        ? -1
        : 1
      : a.connected
        ? a.name.localeCompare(b.name)
        : (b.leftAt ?? 0) - (a.leftAt ?? 0),
  );
  return { serverTime: now, participants };
}
