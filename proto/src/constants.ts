/** Business constants and limits of spec section 9 (and the few of sections 2 to 4 they imply). */

export const SESSION_TYPES = ['video', 'stream', 'chat'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

export const USER_TYPES = ['researcher', 'participant'] as const;
export type UserType = (typeof USER_TYPES)[number];
/** The "special type" of spec section 2: users of this type land on /dashboard. */
export const RESEARCHER: UserType = 'researcher';
export const PARTICIPANT: UserType = 'participant';

/** Who may see a session: every participant (the scope picker's default, spec section 2). */
export const EVERYONE = 'Everyone';

/** Record panel tabs of the session editor (spec sections 2 and 9). */
export const RECORD_TABS = ['Messages', 'Pixels', 'Prompts', 'Playback'] as const;
export type RecordTab = (typeof RECORD_TABS)[number];

/** What `/exportRecords` can export, one per record tab. */
/**
 * Where a session is in its life, as its participants see it: not started (they wait; nothing of
 * theirs is accepted yet), live, or ended (closed: no joins, nothing accepted from anyone, until
 * its researcher reopens it). A new session is not started; the researcher opening its live page,
 * or opening it from the editor, makes it live.
 */
export const SESSION_STATES = ['not_started', 'live', 'ended'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const RECORD_KINDS = ['messages', 'pixels', 'prompts', 'playback'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/**
 * What the playback log records of the researcher's player: play, pause, a seek, a rate change, and
 * a prompt firing (the researcher's player reached a prompt's second; fired once per run); and of
 * the session's lifecycle: the researcher ended it, or reopened it after it ended.
 */
export const PLAYBACK_EVENTS = ['play', 'pause', 'seek', 'rate', 'prompt', 'end', 'reopen'] as const;
export type PlaybackEvent = (typeof PLAYBACK_EVENTS)[number];
/**
 * A status whose position is further than this from where the previous one would have the video
 * by now is a seek; closer, it is the same playback (a resync, a stall caught up).
 */
export const PLAYBACK_SEEK_TOLERANCE_S = 1;

// ---- Auth -------------------------------------------------------------------------------------

/** Cookie names the web keeps the tokens in (spec section 3): HttpOnly, set by auth. */
export const TOKEN_COOKIES = { accessToken: 'accessToken', refreshToken: 'refreshToken' } as const;
/** The refresh-token cookie expires after this many days. */
export const REFRESH_TOKEN_COOKIE_DAYS = 3;
/**
 * The cookie a script may read beside the HttpOnly token cookies (ours): no token, only when the
 * access token expires (epoch seconds), so the web app knows it is signed in and when to renew.
 */
export const SIGNED_IN_COOKIE = 'signedIn';
/**
 * The header the web app sends with every API call (ours). A cookie authenticates a change only with
 * it: another site's form cannot set a header, and its fetch with one needs a CORS preflight that
 * ALLOWED_ORIGINS refuses. Its answers never carry the refresh token, which stays in its cookie.
 */
export const APP_REQUEST_HEADER = { name: 'X-Requested-With', value: 'uis' } as const;
/** A magic link is valid this long, and only once. */
export const MAGIC_LINK_TTL_MINUTES = 15;
/** An invitation's link signs in like a magic link (once), but waits days: studies are announced ahead. */
export const INVITATION_TTL_HOURS = 7 * 24;
/** Invitation mails one session may send per hour: a large class, not a spray. */
export const INVITATIONS_PER_SESSION_PER_HOUR = 1000;
/** Invitation mails one address may get from one session per hour: a re-send or two, never a flood. */
export const INVITATIONS_PER_ADDRESS_PER_HOUR = 3;
/** Join attempts (valid or not) one user may make per minute: nobody guesses a link, however lucky. */
export const JOIN_ATTEMPTS_PER_MINUTE = 20;
/**
 * Query parameters of a join link kept as the participant's panel ids (a recruitment panel's own:
 * Prolific's PROLIFIC_PID, STUDY_ID and SESSION_ID, MTurk's workerId, assignmentId and hitId, ...):
 * at most this many, names of letters, digits and underscores, values of at most 200 characters.
 */
export const PANEL_IDS_MAX = 10;
export const PANEL_ID_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const PANEL_ID_VALUE_MAX_CHARS = 200;
/**
 * A participant keeps the panel ids of their first join; a later join with others is kept beside
 * them as a conflict the researcher sees (a shared device, a second panel account), at most this
 * many: nothing a link's visitor sends grows a row without bound.
 */
export const PANEL_ID_CONFLICTS_MAX = 5;
/**
 * A path of this app to open after signing in (a join link, an invitation's session): one leading
 * slash and no second one or backslash after it (so never another host), no spaces, at most
 * RETURN_PATH_MAX_CHARS.
 */
export const RETURN_PATH_PATTERN = /^\/(?![/\\])[^\\\s]*$/;
export const RETURN_PATH_MAX_CHARS = 1000;
/** Where the app opens a join link: /join/<token>. */
export const JOIN_PATH = '/join';
/** The web app's live screen of a session (spec section 2: the id after a colon), where invitations open. */
export const liveSessionPathOf = (sessionId: string): string => `/liveSession/:${sessionId}`;

// ---- Uploads ----------------------------------------------------------------------------------

/** The upload control's `accept` (the server checks the content, not the name). */
export const UPLOAD_ACCEPT = '.mp4';
export const VIDEO_MIME_TYPE = 'video/mp4';
/** Default largest accepted video (content's VIDEO_MAX_BYTES overrides it); the spec shows no bound. */
export const VIDEO_UPLOAD_MAX_BYTES = 2 * 1024 * 1024 * 1024;
/** Public path that serves uploaded videos, keyed by session id and file name (spec section 3). */
export const ASSETS_PATH = '/assets';
/** The REST API's OpenAPI document and Swagger UI (static files of the web build). */
export const API_DOCS_PATH = '/api/docs';

// ---- Field limits (the spec shows none; these keep rows and broadcasts small) ------------------

export const TITLE_MAX_CHARS = 200;
/** Display names, action names. Same limit as auth's user name. */
export const NAME_MAX_CHARS = 200;
/** A chat message; prompts are sent as chat messages, so they share it. */
export const CHAT_MESSAGE_MAX_CHARS = 2000;
export const TRACK_MAX_CHARS = 2000;
/** A session source: a hosted video URL for stream, the file name for video. */
export const SOURCE_MAX_CHARS = 2048;
export const ICON_NAME_MAX_CHARS = 64;
/** Participants named in one session's scope. */
export const SCOPE_MAX_EMAILS = 1000;
/** A prompt pauses the video for at most a day. */
export const PROMPT_DURATION_MAX_SECONDS = 24 * 60 * 60;

// ---- Actions (reaction icons) -----------------------------------------------------------------

/** Material icon styles the icon picker offers (spec section 2). */
export const ICON_STYLES = ['filled', 'outlined', 'round', 'sharp', 'two-tone'] as const;
export type IconStyle = (typeof ICON_STYLES)[number];
export const DEFAULT_ICON_STYLE: IconStyle = 'filled';
/** The colour picker's default (black) and its one non-hex value. */
export const DEFAULT_ACTION_COLOR = '#000000';
export const TRANSPARENT = 'transparent';
/** A new action before the researcher edits it (spec shows only `sessionId` on /addAction). */
export const DEFAULT_ACTION_NAME = 'New action';
export const DEFAULT_ACTION_ICON = 'thumb_up';

/** A new group's and a new session's title (spec shows no title on the create calls). */
export const DEFAULT_GROUP_TITLE = 'New group';
export const DEFAULT_SESSION_TITLE = 'New session';
export const DEFAULT_SESSION_TYPE: SessionType = 'video';

/** The colour recorded for a click on a stream, whose pixels the page cannot read. */
export const STREAM_PIXEL_COLOR = 'n/a';

// ---- Select control texts (spec section 9) ----------------------------------------------------

export const SELECT_TEXTS = {
  loading: 'Loading...',
  noOptions: 'No options',
  placeholder: 'Select...',
} as const;

// ---- Realtime client defaults (spec sections 7 and 9) -----------------------------------------

export const REALTIME_PATH = '/socket.io/';
export const REALTIME_TRANSPORTS = ['websocket'] as const;
export const REALTIME_CONNECT_TIMEOUT_MS = 20_000;
export const REALTIME_RECONNECT_DELAY_MS = 1000;
export const REALTIME_RECONNECT_DELAY_MAX_MS = 5000;
/** Reconnection is never given up. */
export const REALTIME_RECONNECT_ATTEMPTS = Infinity;

// ---- Playback sync (ours: the spec only says participants follow) ------------------------------

/** The playback rates a player may be set to (the HTML video element's usual range). */
export const PLAYBACK_RATE_MIN = 0.25;
export const PLAYBACK_RATE_MAX = 4;
/** A status's `at` further than this from the server's clock is replaced by the server's time. */
export const VIDEO_STATUS_MAX_SKEW_MS = 5_000;
/** While playing, the researcher's client sends its status this often (drift stays small between). */
export const VIDEO_STATUS_EVERY_MS = 2_000;
/** A participant ignores drift under this, nudges the rate under SEEK_DRIFT_MS, and seeks past it. */
export const IGNORE_DRIFT_MS = 40;
export const SEEK_DRIFT_MS = 1_000;
/**
 * How far a participant's rate is nudged at most to catch up (10% either way): a slow laptop whose
 * video stalled 200 ms is back within 2 s, where 5% took 4 s; small drifts get small nudges.
 */
export const NUDGE_RATE = 0.1;

// ---- Sign-in with OpenID Connect providers (ours) -----------------------------------

/** A provider's id as configured (OIDC_PROVIDERS) and named in /oidc/start. */
export const OIDC_PROVIDER_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/**
 * Why a sign-in with a provider did not work, by the `signInError` code /oidc/callback sends the
 * browser to /login with: what the login screen says.
 */
export const SIGN_IN_PROVIDER_ERRORS = {
  unknown: 'That sign-in option is not configured here. Use another one, or your e-mail.',
  unavailable: 'The sign-in provider could not be reached. Try again in a moment, or use your e-mail.',
  denied: 'The sign-in was cancelled at the provider. Try again, or use your e-mail.',
  state:
    'That sign-in could not be matched to this browser (it took too long, or started elsewhere). Please try again.',
  token: 'The sign-in provider’s answer could not be verified. Please try again, or use your e-mail.',
  unverified:
    'Your account at that provider has no verified e-mail address. Verify it there, or sign in with your e-mail.',
} as const;
export type SignInProviderError = keyof typeof SIGN_IN_PROVIDER_ERRORS;

/**
 * What the login screen says for each `signInError` code /oidc/callback sends the browser back with:
 * the failures, and what happens when the provider is not trusted for its e-mail's domain (auth's
 * README): a sign-in link went to that address, and following it in this browser finishes the
 * sign-in and remembers the provider's account. A superset of SIGN_IN_PROVIDER_ERRORS, for the
 * login screen to look every code up in.
 */
export const SIGN_IN_PROVIDER_MESSAGES = {
  ...SIGN_IN_PROVIDER_ERRORS,
  linkSent:
    'We mailed a sign-in link to the e-mail address of your account at that provider. Open it in this browser to finish signing in: it proves the address is yours, and is needed only once.',
  tooMany:
    'Too many sign-in links went to the e-mail address of your account at that provider. Please wait a few minutes and try again.',
} as const;
export type SignInProviderMessage = keyof typeof SIGN_IN_PROVIDER_MESSAGES;

// ---- Live monitor (ours: the researcher's view of who is there and in sync) --------------------

/** A participant's client reports its position and call state this often (a report faster is dropped). */
export const PRESENCE_REPORT_MS = 500;
/** Each replica refreshes its sockets' presence this often... */
export const PRESENCE_HEARTBEAT_MS = 1_000;
/**
 * ...and a socket not refreshed for this long is gone (its replica died): the monitor shows its
 * person as left within this, not forever.
 */
export const PRESENCE_TTL_MS = 3_500;
/** The most events one `exposure` batch carries (a client sends more as further batches). */
export const EXPOSURE_EVENTS_PER_BATCH = 50;
/** A participant's client sends what it gathered this often while connected (sooner when a batch is full). */
export const EXPOSURE_FLUSH_MS = 5_000;
/** Exposure batches one participant may send per session and EXPOSURE_WINDOW_SECONDS (on each replica). */
export const EXPOSURE_BATCHES_PER_WINDOW = 20;
export const EXPOSURE_WINDOW_SECONDS = 10;
/**
 * Messages the live chat sends on joining (the newest) and per page of older ones: a session with
 * 12,000 messages costs a joining client the same as one with 100.
 */
export const LIVE_MESSAGE_PAGE = 100;

// ---- Peer-to-peer call defaults (spec sections 7 and 9) ---------------------------------------

export const PEER_PATH = '/stream';
export const PEER_DEFAULTS = {
  /** Port the browser reaches the signalling server on (behind TLS). */
  signallingPort: 443,
  heartbeatMs: 5000,
  maxChunkBytes: 16_300,
  sendBufferLimitBytes: 8_388_608,
  sendBufferRetryMs: 50,
  minBrowserVersions: { chrome: 72, firefox: 59, safari: 605 },
} as const;
/** Letters and digits, optionally joined by single spaces, underscores or hyphens; empty is valid. */
export const PEER_ID_PATTERN = /^(?:[A-Za-z0-9]+(?:[ _-][A-Za-z0-9]+)*)?$/;
/** Error kinds the peer layer reports (spec section 8). */
export const PEER_ERROR_TYPES = [
  'browser-incompatible',
  'disconnected',
  'invalid-id',
  'invalid-key',
  'network',
  'peer-unavailable',
  'ssl-unavailable',
  'server-error',
  'socket-error',
  'socket-closed',
  'unavailable-id',
  'webrtc',
] as const;
export type PeerErrorType = (typeof PEER_ERROR_TYPES)[number];

// ---- User-facing texts ------------------------------------------------------------------------

/** Toast texts of spec section 8 (spelling kept verbatim, 'editting' included) and login's success. */

export const UI_TEXTS = {
  magicLinkSent: 'Magic link sent! Please check your email and click the link to proceed',
  // Session editor
  errorGettingSessionInfo: 'Error getting session info',
  errorGettingParticipants: 'Error getting participants',
  errorGettingActions: 'Error getting actions',
  errorAddingAction: 'Error adding action',
  errorEditingAction: 'Error editting action',
  errorDeletingAction: 'Error deleting action',
  errorGettingVideoInfo: 'Error getting video info',
  errorUploadingVideo: 'Error uploading video',
  errorDeletingVideo: 'Error deleting video',
  errorFetchingPrompts: 'Error fetching prompts',
  errorAddingPrompt: 'Error adding prompt',
  errorDeletingPrompt: 'Error deleting prompt',
  errorEditingPrompt: 'Error editing prompt',
  errorUpdatingSessionInfo: 'Error updating session info',
  // Account
  errorDeletingUser: 'Error deleting user',
  errorSigningUp: 'Error signing up.',
  errorSendingMagicLink: 'Error sending magic link',
  // Groups and sessions
  internalError: 'Internal error',
  errorGettingSessions: 'Error getting sessions',
  // Records
  errorFetchingMessages: 'Error fetching messages',
  errorEditingMessage: 'Error editting message',
  errorAddingMessage: 'Error adding message',
  errorDeletingMessage: 'Error deleting message',
  errorFetchingPixels: 'Error fetching pixels',
  errorAddingPixel: 'Error adding pixel',
  errorDeletingPixel: 'Error deleting pixel',
  // Live
  errorFetchingChatMessages: 'Error fetching chat messages',
  failedToGetLocalStream: 'Failed to get local stream',
  // Auth
  authenticationFailed: 'Authentication failed. Please try again.',
  anErrorOccurred: 'An error occurred. Please try again.',
} as const;
export type UiTextKey = keyof typeof UI_TEXTS;

/** Fixed screen texts of spec section 2 that more than one place may need. */
export const SCREEN_TEXTS = {
  appTitle: 'User Interaction Simulator',
  selectUserType: 'Select User Type',
  verifyingLogin: 'Verifying your login...',
  createGroup: 'Create Group',
  createGroupShort: '+ Create',
  createGroupFirst: 'Create a group first',
  allowParticipantClicks: 'Allow Participant Clicks',
  uploadPlaceholder: 'upload file',
  exportButton: 'Export',
} as const;

/** 'Processing N%' on the busy login button. */
export const processingText = (percent: number): string => `Processing ${percent}%`;
/** 'Hello, {name}' in the dashboard's top bar. */
export const helloText = (name: string): string => `Hello, ${name}`;
/** The chat message a reaction sends (spec section 4). */
export const reactionText = (name: string, actionName: string): string =>
  `${name} reacted with ${actionName}`;

/** User-facing validation texts of spec section 5, kept verbatim. */
export const VALIDATION_TEXTS = {
  empty: 'This field must not be empty',
  loginEmail: 'Please provide your email to enter.',
  signupEmail: 'Please provide your email.',
  signupName: 'Please provide your name.',
  authFailed: 'Authentication failed. Please try again.',
} as const;

/**
 * Settings a newcomer has not made: without them `npm start` picks its embedded defaults. What starts
 * `npm start` as a newcomer would (the web e2e, the benchmark's P9) removes them from its environment;
 * CI exports DATABASE_URL and REDIS_URL for the service tests, which must not reach it. Here, among
 * the browser's constants, so that the web e2e may import it.
 */
export const NEWCOMER_UNSET_SETTINGS: readonly string[] = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'S3_BUCKET',
  'S3_REGION',
  'PUBLIC_URL',
  'RESEARCHER_EMAILS',
  'SIGNUP_EMAIL_PROOF',
  'JWT_SECRET',
  'SERVICE_TOKEN',
  'OUTBOX_DIR',
  'HOST',
  'PORT',
  'NODE_ENV',
  'AUTH_URL',
  'STUDIES_URL',
  'CONTENT_URL',
  'RECORDS_URL',
  'MAILER_URL',
  'REALTIME_URL',
  'SIGNAL_URL',
];
