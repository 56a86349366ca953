import type { DeviceCheckItem, PlaybackEvent } from '@uis/proto';

/**
 * The web app's own English texts that more than one screen shows, each written once (the spec's
 * texts stay in proto). Only lazily loaded screens import this module, so the login route's bundle
 * does not carry it.
 */
export const COMMON_TEXTS = {
  /** A socket call that got no answer (the change may still have reached the server). */
  serverTimeout: 'The server did not answer in time.',
  connecting: 'Connecting…',
  loadingSession: 'Loading the session…',
  sessionNotLoaded: 'This session could not be loaded.',
  loadingSessions: 'Loading sessions…',
  loadingVideo: 'Loading the video…',
  loadingMessages: 'Loading messages…',
  noMessages: 'No messages yet.',
  nobodyJoined: 'Nobody has joined yet.',
  /** proto has no text for it: the playback log is ours. */
  playbackLogError: 'Error fetching the playback log',
  /** A prompt's columns, in the edit panel and the record panel. */
  durationSeconds: 'Duration (s)',
  prompt: 'Prompt',
  /** A chat record's kind, in the record panel and the replay. */
  message: 'Message',
  reaction: 'Reaction',
  cancel: 'Cancel',
  addSession: 'Add session',
  deleteSession: 'Delete session',
  /** The study export's link: in the session editor and on the dashboard (a group's sessions). */
  exportStudy: 'Export study (ZIP)',
  /** Beside it: whether the archive holds identifiers.csv (left out unless ticked). */
  includeIdentifiers: 'Include identifiers (e-mails, names, panel ids)',
  /** A list of session cards. */
  sessions: 'Sessions',
  backToSessions: 'Back to your sessions',
  checkDevices: 'Check your camera and microphone',
  /** The consent text: in the live session's consent gate and the editor's consent section. */
  consentText: 'Consent text',
} as const;

/** The consent text's version and the start of its checksum, in the consent gate. */
export const consentVersionText = (version: number): string => `Version ${version} · SHA-256`;

/** A session card's kind, for screen readers. */
export const sessionKindText = (type: string): string => `(${type} session)`;

/** A long list's button that shows the next page. */
export const showMoreText = (hidden: number): string => `Show more (${hidden} more)`;

/** Joining a session: a join link's confirmation and the live session's consent gate ask alike. */
export const JOIN_TEXTS = {
  heading: 'Join this session?',
  join: 'Join the session',
  notNow: 'Not now',
} as const;

/** A live session's heading while its title is not known yet. */
export const LIVE_SESSION_TITLE = 'Live session';

/** Why a stream (YouTube, HLS, DASH, MP4) did not play, live or in the replay. */
export const streamNotPlayedText = (why: string): string => `The stream could not be played: ${why}`;

/** What the researcher's player did, in the playback log and the replay. */
export const PLAYBACK_EVENT_TEXTS = {
  play: 'Play',
  pause: 'Pause',
  seek: 'Seek',
  rate: 'Speed',
  end: 'Session ended',
  reopen: 'Session reopened',
} as const satisfies Record<Exclude<PlaybackEvent, 'prompt'>, string>;

/** The consent gate, which the live session and the device check both open behind. */
export const CONSENT_GATE_TEXTS = {
  heading: 'Before you join',
  intro: 'The researcher asks you to read and agree to the following before the live session opens.',
  agree: 'I agree',
  notNow: JOIN_TEXTS.notNow,
  changed: 'The researcher has just changed this text. Please read it again.',
  failed: 'Your agreement could not be saved. Please try again.',
  confirmHeading: JOIN_TEXTS.heading,
  confirmBody:
    'Its researcher will see your name and e-mail address, and what you write, react and click in the session.',
  join: JOIN_TEXTS.join,
  agreeAndJoin: 'I agree and join',
  joinFailed: 'You could not join the session. Please try again.',
} as const;

/** The device check's items, in the order it shows them: on its page and in the record panel's tab. */
export const DEVICE_CHECK_ITEM_TEXTS = {
  camera: 'Camera',
  microphone: 'Microphone',
  speakers: 'Speakers',
  stun: 'Network: reaching the call server',
  turn: 'Network: relay for strict firewalls',
  rtt: 'Network: speed of the connection',
} as const satisfies Record<DeviceCheckItem, string>;

/** '1 message', '3 clicks': a count with its noun. */
const countText = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** What a withdrawal deleted, in words ('2 messages and 1 click'): for the participant and the researcher. */
export const deletedText = ({ messages, clicks }: { messages: number; clicks: number }): string =>
  `${countText(messages, 'message')} and ${countText(clicks, 'click')}`;

/** Units of time after a number ('12 s', '1 h 5 min'): the monitor's durations and drift, the replay's spans. */
export const TIME_UNITS = { ms: 'ms', s: 's', min: 'min', h: 'h' } as const;
