/** The record panel's own English texts (the edit-session route's chunk carries this module). */
export const RECORD_TABLE_TEXTS = {
  time: 'Time',
  who: 'Who',
  video: 'Video',
  browser: 'Browser',
  colour: 'Colour',
  event: 'Event',
  delete: 'Delete',
} as const;

/** The record panel's tabs, their empty states and notes. */
export const RECORD_PANEL_TEXTS = {
  records: 'Records',
  recordKind: 'Record kind',
  pass: 'Pass',
  fail: 'Fail',
  loadingDeviceChecks: 'Loading the device checks…',
  noDeviceChecks: 'No device checks yet.',
  loadingClicks: 'Loading clicks…',
  noClicks: 'No clicks yet.',
  loadingPlaybackLog: 'Loading the playback log…',
  nothingPlayed: 'Nothing played yet.',
  deletedPrompt: '(a prompt since deleted)',
  loadingPrompts: 'Loading prompts…',
  noPrompts: 'No prompts yet.',
  /** A record's video time: its title, and its name for screen readers (with none, then with one). */
  notOnVideo: 'Not on the video (nothing was playing)',
  videoTime: 'Video time',
  noVideoTimeHidden: 'no video time',
  videoTimeHidden: 'video time',
  deviceChecksNotFetched: 'Error fetching the device checks',
  /** Our tab, beside the spec's record kinds. */
  deviceChecks: 'Device checks',
  saveMessage: 'Save message',
  editMessage: 'Edit message',
  deleteMessage: 'Delete message',
  deleteClick: 'Delete click',
  deleteMessageHeading: 'Delete this message?',
  messageDeleted: 'Message deleted.',
  undo: 'Undo',
} as const;

/** The start of a long message, in its deletion's question. */
const excerpt = (text: string, chars = 80): string =>
  text.length > chars ? `${text.slice(0, chars).trimEnd()}…` : text;

/** What deleting a message loses, and for how long it can be taken back. */
export const deleteMessageWarningText = (name: string, text: string, undoSeconds: number): string =>
  `${name}’s message “${excerpt(text)}” is removed from the records and from exports. You can undo this for ${undoSeconds} seconds.`;

/** The device checks tab's column headers: short, for a table of nine columns. */
export const DEVICE_CHECK_HEADER_TEXTS = {
  stun: 'STUN',
  turn: 'TURN relay',
  rtt: 'Round trip',
} as const;

/** A record's round trip, after its outcome. */
export const roundTripMsText = (ms: number): string => ` ${ms} ms`;

/** A chat message's text box, for screen readers. */
export const messageFromText = (name: string): string => `Message from ${name}`;
