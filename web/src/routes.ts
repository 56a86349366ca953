/** Route paths of spec section 2, in one place. */
export const PATHS = {
  login: '/',
  signup: '/signup',
  dashboard: '/dashboard',
  sessions: '/sessions',
  editSession: '/editSession/:sessionId',
  liveSession: '/liveSession/:sessionId',
  authCallback: '/authcallback',
} as const;

/** Session ids arrive in the path with a leading colon (`/editSession/:abc`); the id is what follows. */
export const stripLeadingColon = (value: string): string => value.replace(/^:/, '');

/** Links to a session's screens carry the spec's leading colon before the id. */
export const editSessionPath = (sessionId: string): string => `/editSession/:${sessionId}`;
export const liveSessionPath = (sessionId: string): string => `/liveSession/:${sessionId}`;
