import { RESEARCHER } from '@uis/proto/browser';
import type { User } from '@uis/proto';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { call } from '../api/client';
import { PATHS } from '../routes';
import { tokens, type TokenPair } from './tokens';

export type AuthState = { status: 'checking' } | { status: 'signedOut' } | { status: 'signedIn'; user: User };

interface AuthApi {
  state: AuthState;
  /** Stores a fresh token pair (sign-in, sign-up) and loads its user. */
  signIn(pair: TokenPair): Promise<User>;
  /** Revokes the login on the server (best effort) and forgets the tokens. */
  signOut(): Promise<void>;
  /** Forgets the tokens and the user without asking the server (after the account is deleted). */
  forget(): void;
}

const AuthContext = createContext<AuthApi | null>(null);

/** Researchers go to the dashboard, everyone else to their sessions (spec section 2). */
export const homePathOf = (user: Pick<User, 'type'>): string =>
  user.type === RESEARCHER ? PATHS.dashboard : PATHS.sessions;

/**
 * Spec section 4: with neither token the user is signed out; with only a refresh token a new access
 * token is fetched; with an access token the user is fetched from it. On failure the refresh token
 * is removed (and the access token with it: it failed too).
 */
async function restore(): Promise<AuthState> {
  const refreshToken = tokens.refresh();
  if (!tokens.access() && !refreshToken) return { status: 'signedOut' };
  try {
    if (!tokens.access() && refreshToken)
      tokens.setPair(await call('getAccessTokenFromRefreshToken', { refreshToken }));
    // The token travels as the bearer header, so the client's expired-token retry can replace it.
    const { user } = await call('getUserFromToken', {});
    return { status: 'signedIn', user };
  } catch {
    tokens.clear();
    return { status: 'signedOut' };
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'checking' });

  useEffect(() => {
    let live = true;
    void restore().then((restored) => live && setState(restored));
    return () => {
      live = false;
    };
  }, []);

  // The signed-in screens' query cache goes with them (see ServerStateLayout): signed out, they unmount.
  const forget = useCallback(() => {
    tokens.clear();
    setState({ status: 'signedOut' });
  }, []);

  const signIn = useCallback(async (pair: TokenPair) => {
    tokens.setPair(pair);
    const { user } = await call('getUserFromToken', {});
    setState({ status: 'signedIn', user });
    return user;
  }, []);

  const signOut = useCallback(async () => {
    const refreshToken = tokens.refresh();
    if (refreshToken) await call('logout', { refreshToken }).catch(() => undefined);
    forget();
  }, [forget]);

  const api = useMemo(() => ({ state, signIn, signOut, forget }), [state, signIn, signOut, forget]);
  return <AuthContext.Provider value={api}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthApi {
  const api = useContext(AuthContext);
  if (!api) throw new Error('useAuth needs an <AuthProvider> above it');
  return api;
}

/** The signed-in user, for screens behind <RequireUser>. */
export function useUser(): User {
  const { state } = useAuth();
  if (state.status !== 'signedIn') throw new Error('useUser is only for screens behind <RequireUser>');
  return state.user;
}
