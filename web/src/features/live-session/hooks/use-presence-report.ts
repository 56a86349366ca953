import { PRESENCE_REPORT_MS } from '@uis/proto/browser';
import type { ClientPayloadOf } from '@uis/proto';
import type { LiveConnection } from '@uis/live-client';
import { useEffect, useRef } from 'react';

export type PresenceReading = Omit<ClientPayloadOf<'presenceReport'>, 'sessionId'>;

/**
 * A participant's page tells the researcher's monitor, every PRESENCE_REPORT_MS while connected,
 * what `read` says (where its player is and whether it plays muted, or how its call is) and
 * whether the page is visible. Nothing is answered back.
 */
export function usePresenceReport(
  connection: LiveConnection | null,
  sessionId: string,
  read: (() => PresenceReading | null) | null,
): void {
  const latest = useRef(read);
  latest.current = read;
  const active = read !== null;
  useEffect(() => {
    if (!connection || !active) return;
    const timer = setInterval(() => {
      const reading = latest.current?.();
      if (!reading || connection.state.status !== 'connected') return;
      // Whether the page is visible goes with every report (a hidden tab sees nothing of the session).
      const visible = document.visibilityState !== 'hidden';
      connection.ask('presenceReport', { sessionId, visible, ...reading }).catch(() => undefined);
    }, PRESENCE_REPORT_MS);
    return () => clearInterval(timer);
  }, [connection, sessionId, active]);
}
