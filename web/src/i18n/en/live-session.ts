/** The live session's own English texts (the live-session route's chunk carries this module). */
export const LIVE_SESSION_TEXTS = {
  video: 'Video',
  videoCall: 'Video call',
  peopleInCall: 'People in the call',
  researcherNotInCall: 'The researcher is not in the call yet.',
  retryMedia: 'Retry camera and microphone',
  turnOnSound: 'Turn on sound',
  chat: 'Chat',
  chatMessages: 'Chat messages',
  loadingOlderMessages: 'Loading older messages…',
  loadOlderMessages: 'Load older messages',
  newMessages: 'New messages',
  /** The chat box's label. */
  message: 'Message',
  writeMessage: 'Write a message',
  signInAgain: 'Sign in again',
  reconnecting: 'Reconnecting…',
  endSession: 'End session',
  endForEveryone: 'End the session for everyone?',
  endItForEveryone: 'End it for everyone?',
  yesEndSession: 'Yes, end session',
  exit: 'Exit',
  participants: 'Participants',
  connectedFor: 'Connected for',
  joinedAgain: 'Joined again after the first time',
  videoPosition: 'Their video position',
  drift: 'How far their video is from yours (+ ahead, − behind)',
  pausedAt: 'paused at',
  playingAt: 'playing at',
  muted: 'muted',
  microphoneOn: 'microphone on',
  /** The monitor: the session's video plays without sound on their page, or with it. */
  soundOff: 'sound off',
  soundOn: 'sound on',
  soundTitle: 'The session video’s sound on their page',
  /** The monitor: their page is not visible (another tab, or the window minimised). */
  tabHidden: 'tab hidden',
  tabHiddenTitle: 'They cannot see the session now: its tab is hidden or the window minimised',
  joinPlayback: 'Click to join playback',
  reactions: 'Reactions',
  ended: 'This session has ended',
  endedByResearcher: 'The researcher has ended this session. Thank you for taking part.',
  endedByYou: 'You ended this session for everyone.',
  continueNow: 'Continue now',
  closedToLateParticipant:
    'It ended before you arrived: nothing more can be sent in it. Please return to where you found its link.',
  closedToOwner:
    'Nobody can join it or send anything in it. Reopen it to let its participants in again; the playback log records the reopening.',
  reopenSession: 'Reopen session',
  backToEditor: 'Back to the session editor',
  notReopened: 'The session was not reopened',
  notStarted: 'The session has not started yet',
  waitingForResearcher:
    'Please keep this page open: it moves on by itself when the researcher starts the session.',
  noVideoOwner: 'This session has no video yet: upload one in the session editor.',
  noVideo: 'This session has no video yet.',
  noStreamSource: 'This stream session has no source yet.',
  clicksNotChanged: 'Clicks were not changed',
  /** A tile without a picture whose person is in the call. */
  cameraOff: 'Camera off',
  connectingToCall: 'Connecting to the call…',
  callingResearcher: 'Calling the researcher…',
  notEnded: 'The session was not ended',
  /** What a click says when it is not recorded. */
  clickNotRecorded: 'Your click was not recorded',
  /** Your own tile in the call. */
  you: 'You',
  loadingCall: 'Loading the call…',
} as const;

export const accessEndedText = (why: string): string => `You are no longer in this session: ${why}`;

export const signInEndedText = (why: string): string =>
  `Your sign-in has ended: ${why} Sign in again to rejoin the session.`;

export const notConnectedText = (why: string): string => `The live session is not connected: ${why}`;

/** The researcher's monitor: how many are connected, and how many left. */
export const connectedCountText = (connected: number, left: number): string =>
  `${connected} connected${left > 0 ? `, ${left} left` : ''}`;

export const connectedForText = (duration: string): string => `for ${duration}`;

export const leftAgoText = (duration: string): string => `left ${duration} ago`;

export const reconnectsText = (count: number): string => `${count} reconnect${count === 1 ? '' : 's'}`;

/** After a session that ends with a link to the next step. */
export const nextStepText = (seconds: number): string =>
  `Taking you to the next step in ${seconds} second${seconds === 1 ? '' : 's'}…`;

/** The live screen's buttons, labels and toasts. */
export const LIVE_CONTROL_TEXTS = {
  sessionVideo: 'Session video',
  muteVideo: 'Mute video',
  unmuteVideo: 'Unmute video',
  muteMicrophone: 'Mute microphone',
  sendMessage: 'Send message',
  reactionNotSent: 'Your reaction was not sent',
  noAnswer: 'No answer from the server: try again.',
  clicksAllowed: 'The researcher allowed clicks: you may click the video now.',
  clicksTurnedOff: 'The researcher turned clicks off: clicks on the video are not recorded now.',
} as const;

export const reactWithText = (action: string): string => `React with ${action}`;

export const messageNotSentText = (why: string): string => `Your message was not sent: ${why}`;

/** After the socket timeout, under a message that got no answer. */
export const MESSAGE_UNANSWERED_TEXT = 'If your message is not in the list, send it again.';

/** The camera call's one line on how it is going. */
export const CALL_STATUS_TEXTS = {
  startingMedia: 'Starting your camera and microphone…',
  reconnecting: 'Reconnecting to the call server…',
  failed: 'The call could not start.',
  inCallWithResearcher: 'You are in the call with the researcher.',
  connectingToResearcher: 'Connecting the call with the researcher…',
  waitingForResearcher: 'Waiting for the researcher to start the call.',
  waitingForParticipants: 'Waiting for participants to join the call.',
  startingCamera: 'Starting camera…',
} as const;

export const participantsInCallText = (count: number): string =>
  `${count} participant${count === 1 ? '' : 's'} in the call.`;

/** The researcher's monitor: how a participant's call link is doing (a title, and a note after the name). */
export const CALL_LINK_TEXTS = {
  connected: { title: 'In the call', text: null },
  connecting: { title: 'Connecting to the call', text: ' not in the call yet' },
  failed: { title: 'Their call cannot connect from their network', text: ' not in the call: cannot connect' },
} as const;

/** The sound gate a participant passes before a video or stream session plays. */
export const SOUND_GATE_TEXTS = {
  title: 'Check your sound',
  intro: 'This session’s video has sound. Turn it on and listen for a short tone.',
  playTone: 'Turn on sound and play a tone',
  playing: 'Playing a tone…',
  question: 'Did you hear the tone?',
  heard: 'I hear it',
  notHeard: 'I don’t hear anything',
  hint: 'Check that your device is not muted or on silent, turn the volume up (or plug in headphones), then play the tone again.',
  playAgain: 'Play the tone again',
  continueMuted: 'Continue without sound',
  noAudio: 'This browser cannot play sound here. You can continue without sound.',
  /** After a reload the browser needs one click before the video may play with sound. */
  resumeWithSound: 'Resume with sound',
  resumeHint: 'The video plays muted until you click.',
} as const;
