import type { UserType } from '@uis/proto';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PATHS } from '../routes';
import { homePathOf, useAuth } from './auth-context';
import { returnPathOf, returnPathState, safeReturnPath } from './return-path';

/**
 * Screens for signed-in users: users with no tokens go to / (spec section 2), carrying this page as
 * the return path (in history state, so the address stays /), to come back to after signing in;
 * `type` limits who.
 */
export function RequireUser({ type, children }: { type?: UserType; children: ReactNode }) {
  const { state } = useAuth();
  const { pathname, search } = useLocation();
  if (state.status === 'checking') return null;
  if (state.status === 'signedOut')
    return <Navigate to={PATHS.login} replace state={returnPathState(safeReturnPath(pathname + search))} />;
  if (type && state.user.type !== type) return <Navigate to={homePathOf(state.user)} replace />;
  return children;
}

/**
 * Login and sign-up: a signed-in user is sent on by type instead (spec section 4), or to the page
 * they were signing in for.
 */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const returnPath = returnPathOf(useLocation().state);
  if (state.status === 'signedIn') return <Navigate to={returnPath ?? homePathOf(state.user)} replace />;
  return children;
}
