/** What the bench and its chat load generator (a process of its own) say to each other, a JSON line each. */

export type Target = 'ours' | 'bare';

export interface LoadSetup {
  target: Target;
  /** The gateway: https://localhost:<port>. */
  url: string;
  /** The gateway's certificate (PEM), trusted by the clients. */
  ca: string;
  /** Sessions (rooms) and, per socket, the access token it connects with (ours) or none (bare). */
  sessions: { sessionId: string; tokens: string[] }[];
}

export type LoadCommand =
  /** Connects and joins every socket, starts evenly spread over `spreadMs`. */
  | { cmd: 'connect'; spreadMs: number }
  /** One message a second per session (the first `sessions`), from a rotating member, for `seconds`. */
  | { cmd: 'round'; sessions: number; seconds: number }
  /** Closes every socket (the next `connect` starts afresh). */
  | { cmd: 'disconnect' }
  | { cmd: 'close' };

export interface ConnectReport {
  joined: number;
  failed: number;
  firstError?: string;
  /** Per socket, connect started to the list received (ms), ascending. */
  joinMs: number[];
  wallMs: number;
}

export interface RoundReport {
  sent: number;
  acknowledged: number;
  /** Deliveries owed: every member of the room, for every message sent. */
  expected: number;
  delivered: number;
  /** Sent to received, over every delivery (ms), ascending. */
  latencies: number[];
  wallMs: number;
  /** CPU seconds the load generator used in the round. */
  clientCpu: number;
}
