import { RESEARCHER } from '@uis/proto/browser';
import type { User } from '@uis/proto';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { call, renewAccessToken } from '../api/client';
import { PATHS } from '../routes';
import { tokens } from './tokens';

export type AuthState = { status: 'checking' } | { status: 'signedOut' } | { status: 'signedIn'; user: User };

interface AuthApi {
  state: AuthState;
  /** Loads the user of the cookies a sign-in or sign-up answer just set. */
  signIn(): Promise<User>;
  /** Revokes the login on the server, which clears its cookies (best effort), and forgets the user. */
  signOut(): Promise<void>;
  /** Forgets the user without asking the server (the login already ended there). */
  forget(): void;
}

const AuthContext = createContext<AuthApi | null>(null);

/** Researchers go to the dashboard, everyone else to their sessions (spec section 2). */
export const homePathOf = (user: Pick<User, 'type'>): string =>
  user.type === RESEARCHER ? PATHS.dashboard : PATHS.sessions;

/**
 * Spec section 4: signed out without tokens (no marker: tokens.ts); with an expired access token a
 * new one is fetched by the refresh cookie; then the user is fetched with it. On failure the marker
 * is removed (the server cleared the cookies it refused).
 */
async function restore(): Promise<AuthState> {
  if (!tokens.present()) return { status: 'signedOut' };
  try {
    if (tokens.expiresWithin(0)) await renewAccessToken();
    // The client's 401 retry renews an access token that expired unseen (a marker from before).
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

  const signIn = useCallback(async () => {
    const { user } = await call('getUserFromToken', {});
    setState({ status: 'signedIn', user });
    return user;
  }, []);

  // The refresh cookie goes with the call, which revokes its login and clears the cookies.
  const signOut = useCallback(async () => {
    await call('logout', {}).catch(() => undefined);
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
