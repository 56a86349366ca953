import { JOIN_PATH, liveSessionPathOf } from '@uis/proto/browser';

/** Route paths of spec section 2, in one place; ours: a session's join link. */
export const PATHS = {
  login: '/',
  signup: '/signup',
  dashboard: '/dashboard',
  sessions: '/sessions',
  editSession: '/editSession/:sessionId',
  liveSession: '/liveSession/:sessionId',
  authCallback: '/authcallback',
  join: `${JOIN_PATH}/:token`,
  /** Ours: a call session's pre-session check of camera, microphone, speakers and network. */
  deviceCheck: '/check/:sessionId',
  /** Ours: the researcher's guide (docs/guide), from the account bar's help button. */
  guide: '/guide',
} as const;

/** Session ids arrive in the path with a leading colon (`/editSession/:abc`); the id is what follows. */
export const stripLeadingColon = (value: string): string => value.replace(/^:/, '');

/** Links to a session's screens carry the spec's leading colon before the id. */
export const editSessionPath = (sessionId: string): string => `/editSession/:${sessionId}`;
export const liveSessionPath = liveSessionPathOf;
