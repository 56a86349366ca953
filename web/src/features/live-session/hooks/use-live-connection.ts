import { INITIAL_LIVE_STATE, LiveConnection, type LiveState } from '@uis/proto/live';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { renewAccessToken } from '../../../api/client';
import { tokens } from '../../../auth/tokens';
import { appConfig } from '../../../config/app-config';

/**
 * The page's one LiveConnection (proto's, the client realtime's tests run too), joined to the
 * session, closed when the page goes. On the app's origin unless /app-config.json names realtime's
 * (the gateway proxies the socket's path with the API); the access token goes in the handshake (and
 * its cookie with the WebSocket), and the client renews it with the refresh token before it expires.
 */
export function useLiveConnection(sessionId: string): LiveConnection | null {
  const [connection, setConnection] = useState<LiveConnection | null>(null);
  useEffect(() => {
    const live = new LiveConnection({
      url: appConfig().realtimeUrl || undefined,
      accessToken: () => tokens.access(),
      renewAccessToken,
    });
    // A refusal arrives as the `message` error marker and the state's problem; nothing to do here.
    live.join(sessionId).catch(() => undefined);
    setConnection(live);
    return () => {
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
