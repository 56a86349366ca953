import { parsePeerId } from '@uis/proto';
import { WebSocket, type RawData } from 'ws';
import type { AdmittedPeer } from './registration-gate';

const textOf = (data: RawData): string =>
  Buffer.isBuffer(data)
    ? data.toString()
    : Array.isArray(data)
      ? Buffer.concat(data).toString()
      : Buffer.from(data).toString();

/** Where a PeerJS message goes, or undefined (a heartbeat, a leave-all, or not JSON: PeerJS handles those). */
export function destinationOf(data: RawData): string | undefined {
  try {
    const message: unknown = JSON.parse(textOf(data));
    const dst = (message as { dst?: unknown } | null)?.dst;
    return typeof dst === 'string' && dst !== '' ? dst : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The socket of one admitted peer (ws builds it for PeerJS through the `WebSocket` server option).
 * PeerJS relays an offer, answer or candidate to any id it is given; this socket lets through only
 * messages for peers of its own session, so a peer admitted to one chat session cannot call, or
 * flood the queues of, peers of another. A refused message is answered the way PeerJS answers a
 * message for a peer that never came (EXPIRE), which the PeerJS client reports as 'peer-unavailable'.
 */
export class SessionScopedSocket extends WebSocket {
  /** Set on connection, before PeerJS's own listeners see the socket. */
  admitted?: AdmittedPeer;
  onRefusedRelay?: (destination: string) => void;

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    const peer = this.admitted;
    if (event === 'message') {
      if (!peer) return false; // fail closed: every socket is admitted before PeerJS sees it
      const destination = destinationOf(args[0] as RawData);
      if (destination !== undefined && parsePeerId(destination)?.sessionId !== peer.sessionId) {
        this.send(JSON.stringify({ type: 'EXPIRE', src: destination, dst: peer.peerId }));
        this.onRefusedRelay?.(destination);
        return false;
      }
    }
    return super.emit(event, ...args);
  }
}
