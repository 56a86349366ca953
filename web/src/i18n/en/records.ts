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
} as const;
