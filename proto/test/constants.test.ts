import * as constants from '../src/constants';
import {
  BREAKPOINTS_PX,
  PEER_DEFAULTS,
  PEER_ERROR_TYPES,
  PEER_ID_PATTERN,
  RECORD_TABS,
  SELECT_TEXTS,
  UI_TEXTS,
  helloText,
  processingText,
  reactionText,
} from '../src/constants';

/** Spec section 8, every toast text, verbatim (spelling included). */
const SPEC_TOASTS = [
  'Error getting session info',
  'Error getting participants',
  'Error getting actions',
  'Error adding action',
  'Error editting action',
  'Error deleting action',
  'Error getting video info',
  'Error uploading video',
  'Error deleting video',
  'Error fetching prompts',
  'Error adding prompt',
  'Error deleting prompt',
  'Error editing prompt',
  'Error updating session info',
  'Error deleting user',
  'Error signing up.',
  'Error sending magic link',
  'Internal error',
  'Error getting sessions',
  'Error fetching messages',
  'Error editting message',
  'Error adding message',
  'Error deleting message',
  'Error fetching pixels',
  'Error adding pixel',
  'Error deleting pixel',
  'Error fetching chat messages',
  'Failed to get local stream',
  'Authentication failed. Please try again.',
  'An error occurred. Please try again.',
];

describe('constants of spec section 9', () => {
  it('keeps the session types and roles', () => {
    expect(constants.SESSION_TYPES).toEqual(['video', 'stream', 'chat']);
    expect(constants.USER_TYPES).toEqual(['researcher', 'participant']);
    // The spec's three tabs, then ours: the playback log (issue 13).
    expect(RECORD_TABS).toEqual(['Messages', 'Pixels', 'Prompts', 'Playback']);
  });

  it('has the timings', () => {
    expect({
      debounce: constants.DEBOUNCE_MS,
      toast: constants.TOAST_MS,
      step: constants.LOGIN_PROGRESS_STEP,
      every: constants.LOGIN_PROGRESS_INTERVAL_MS,
      cap: constants.LOGIN_PROGRESS_CAP,
      done: constants.LOGIN_PROGRESS_DONE,
      idle: constants.LOGIN_PROGRESS_IDLE_DELAY_MS,
      marker: constants.CLICK_MARKER_MS,
      twoHours: constants.DEFAULT_TIME_AHEAD_MS,
    }).toEqual({
      debounce: 1000,
      toast: 3000,
      step: 15,
      every: 500,
      cap: 99,
      done: 100,
      idle: 200,
      marker: 2000,
      twoHours: 7_200_000,
    });
  });

  it('has every breakpoint and the video size', () => {
    expect(BREAKPOINTS_PX).toEqual({
      mobileSmallerSide: 768,
      editPanelNarrow: 850,
      liveSmall: 700,
      cardsCompact: 800,
      leftBarCollapse: 500,
      createGroupShort: 900,
      smallCaption: 460,
    });
    expect(constants.DEFAULT_LAYOUT_PX).toEqual({ width: 1200, height: 800 });
    expect(constants.VIDEO_MAX_HEIGHT_PX).toBe(600);
    expect(constants.VIDEO_MAX_HEIGHT_PERCENT_OF_WIDTH).toBe(60);
  });

  it('has the auth, upload and select constants', () => {
    expect(constants.REFRESH_TOKEN_COOKIE_DAYS).toBe(3);
    expect(constants.MAGIC_LINK_TTL_MINUTES).toBe(15);
    expect(constants.UPLOAD_ACCEPT).toBe('.mp4');
    expect(SELECT_TEXTS).toEqual({
      loading: 'Loading...',
      noOptions: 'No options',
      placeholder: 'Select...',
    });
    expect(constants.PLATFORMS).toEqual({ MOBILE: 'MOBILE', WEB: 'WEB' });
  });

  it('has the realtime client and peer defaults', () => {
    expect(constants.REALTIME_CONNECT_TIMEOUT_MS).toBe(20_000);
    expect(constants.REALTIME_RECONNECT_DELAY_MS).toBe(1000);
    expect(constants.REALTIME_RECONNECT_DELAY_MAX_MS).toBe(5000);
    expect(constants.REALTIME_RECONNECT_ATTEMPTS).toBe(Infinity);
    expect(constants.REALTIME_TRANSPORTS).toEqual(['websocket']);
    expect(constants.REALTIME_PATH).toBe('/socket.io/');
    expect(constants.PEER_PATH).toBe('/stream');
    expect(PEER_DEFAULTS).toEqual({
      signallingPort: 443,
      heartbeatMs: 5000,
      maxChunkBytes: 16_300,
      sendBufferLimitBytes: 8_388_608,
      sendBufferRetryMs: 50,
      minBrowserVersions: { chrome: 72, firefox: 59, safari: 605 },
    });
    expect(PEER_ERROR_TYPES).toHaveLength(12);
  });

  it('matches peer ids as the spec describes', () => {
    for (const ok of ['', 'a', 'A1', 'a b', 'a_b', 'a-b', 'a-b_c d'])
      expect(PEER_ID_PATTERN.test(ok)).toBe(true);
    for (const bad of [' ', 'a ', ' a', 'a__b', 'a- b', 'a.b', 'ä'])
      expect(PEER_ID_PATTERN.test(bad)).toBe(false);
  });
});

describe('UI texts', () => {
  it('holds every toast of spec section 8 verbatim, and nothing else but the login success', () => {
    const texts = Object.values(UI_TEXTS);
    expect(texts.filter((t) => t !== UI_TEXTS.magicLinkSent).sort()).toEqual([...SPEC_TOASTS].sort());
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('has the login success text', () => {
    expect(UI_TEXTS.magicLinkSent).toBe(
      'Magic link sent! Please check your email and click the link to proceed',
    );
  });

  it('builds the templated texts', () => {
    expect(processingText(45)).toBe('Processing 45%');
    expect(helloText('Ada')).toBe('Hello, Ada');
    expect(reactionText('Ada', 'Like')).toBe('Ada reacted with Like');
  });
});
