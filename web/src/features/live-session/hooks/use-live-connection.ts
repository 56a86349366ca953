import { INITIAL_LIVE_STATE, LiveConnection, RENEW_BEFORE_EXPIRY_MS, type LiveState } from '@uis/live-client';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { renewAccessToken } from '../../../api/client';
import { tokens } from '../../../signed-in/tokens';
import { appConfig } from '../../../config/app-config';

/**
 * Keeps the connection's access token renewed, by the expiry the signed-in marker tells (this page
 * cannot read the token): RENEW_BEFORE_EXPIRY_MS before it, or halfway for a short-lived one, as
 * LiveConnection does for a token it holds. The new token goes to realtime (renewToken), so the
 * socket stays open; a reconnect's handshake carries the new cookie anyway. An unknown expiry, or a
 * renewal that failed, leaves it to the connection: realtime ends it at expiry, and it renews and
 * connects again. Answers how to stop.
 */
function keepRenewed(live: LiveConnection): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const renew = async () => {
    const token = await renewAccessToken();
    if (stopped || !token) return;
    if (live.socket.connected) await live.ask('renewToken', { token }).catch(() => undefined);
    schedule();
  };
  const schedule = () => {
    clearTimeout(timer);
    const expiresAt = tokens.accessExpiresAt();
    if (stopped || expiresAt === null) return;
    const left = expiresAt - Date.now();
    timer = setTimeout(() => void renew(), Math.max(0, left - RENEW_BEFORE_EXPIRY_MS, left / 2));
  };
  schedule();
  // Connected again (after a renewal by the connection itself, say): the marker may say more now.
  live.socket.on('connect', schedule);
  return () => {
    stopped = true;
    clearTimeout(timer);
    live.socket.off('connect', schedule);
  };
}

/**
 * The page's one LiveConnection (proto's, the client realtime's tests run too), joined to the
 * session, closed when the page goes. On the app's origin unless /app-config.json names realtime's
 * (the gateway proxies the socket's path with the API). The handshake carries no token from here:
 * the HttpOnly accessToken cookie goes with the WebSocket (cookies ignore ports, so realtime on
 * another port of this host gets it too).
 */
export function useLiveConnection(sessionId: string): LiveConnection | null {
  const [connection, setConnection] = useState<LiveConnection | null>(null);
  useEffect(() => {
    const live = new LiveConnection({
      url: appConfig().realtimeUrl || undefined,
      accessToken: () => undefined,
      renewAccessToken,
    });
    const stopRenewing = keepRenewed(live);
    // A refusal arrives as the `message` error marker and the state's problem; nothing to do here.
    live.join(sessionId).catch(() => undefined);
    setConnection(live);
    return () => {
      stopRenewing();
      live.close();
      setConnection(null);
    };
  }, [sessionId]);
  return connection;
}

/** The connection's state (status, chat, click permission), re-rendering on every change. */
export function useLiveState(connection: LiveConnection | null): LiveState {
  const subscribe = useCallback(
    (onChange: () => void) => (connection ? connection.subscribe(onChange) : () => undefined),
    [connection],
  );
  return useSyncExternalStore(subscribe, () => connection?.state ?? INITIAL_LIVE_STATE);
}
