/** The device check's own English texts (the device-check route's chunk carries this module). */
export const DEVICE_CHECK_TEXTS = {
  intro:
    "Before the call, this page checks your camera, microphone, speakers and network, and tells you what to do if something does not work. Only whether each check passed (and your browser's name) is saved for the researcher; nothing is recorded.",
  start: 'Start the check',
  yourCamera: 'Your camera',
  microphoneLevel: 'Microphone level',
  playTestSound: 'Play a test sound',
  playAgain: 'Play it again',
  heardIt: 'Did you hear it?',
  yes: 'Yes',
  no: 'No',
  checks: 'Checks',
  allPassed: 'Everything works: you are ready for the call.',
  saving: 'Saving the result…',
  saved: 'The result is saved for the researcher.',
  checkAgain: 'Check again',
  goToSession: 'Go to the session',
} as const;

export const checksFailedText = (failed: number, total: number): string =>
  `${failed} of ${total} checks failed: see what to do above.`;

export const resultNotSavedText = (error: string): string => `The result could not be saved: ${error}`;

export const adviceText = (advice: string): string => `What to do: ${advice}`;

/** Each check's status beside its name. */
export const CHECK_STATUS_TEXTS = {
  checking: 'Checking…',
  waiting: 'Your turn',
  pass: 'Passed',
  fail: 'Failed',
} as const;

const ASK_RESEARCHER = 'Tell the researcher: the call may not connect from this network.';
/** The advice when the call server or the relay cannot be reached. */
const NETWORK_MAY_BLOCK = `Your network may block it: try another network (e.g. your phone’s hotspot). ${ASK_RESEARCHER}`;

/** What each check found, and what to do about a fail. */
export const CHECK_RESULT_TEXTS = {
  speakersWork: 'Your speakers work.',
  soundNotHeard: 'You did not hear the test sound.',
  soundNotHeardAdvice:
    'Turn the volume up, unmute, check which device plays sound (headphones plugged in?), then check again.',
  cameraWorks: 'Your camera works: you should see yourself.',
  noPicture: 'Your camera sends no picture.',
  noPictureAdvice: 'Check that nothing covers it and no other app uses it, then check again.',
  microphoneWorks: 'Your microphone works: the bar moves when you speak.',
  nothingHeard: 'We heard nothing from your microphone.',
  nothingHeardAdvice:
    'Unmute it (some headsets have a switch), choose the right microphone in your system settings, speak, then check again.',
  slowAdvice: 'Move closer to your Wi-Fi router or use a wired connection, and close downloads or streams.',
  serverDownAdvice: 'Check your internet connection, then check again.',
  noStun: 'No STUN server is configured for calls.',
  askResearcher: ASK_RESEARCHER,
  stunReached: 'Your browser reached the call server.',
  stunNotReached: 'Your browser could not reach the call server (STUN).',
  networkMayBlock: NETWORK_MAY_BLOCK,
  noTurn: 'Relay not available: this deployment has no TURN server.',
  noTurnAdvice: `Calls still connect on most home networks; on a strict one (work, school) they may not. ${ASK_RESEARCHER}`,
  turnReached: 'A relay was set up: the call connects even behind a strict firewall.',
  turnNotReached: 'The relay server (TURN) could not be reached.',
  mediaFailedAdvice: 'Try another browser, or restart this one, then check again.',
  /** A browser whose user agent names none we know (saved for the researcher as its name). */
  unknownBrowser: 'Unknown browser',
  unknownVersion: 'unknown',
} as const;

export const serverAnswersText = (rttMs: number): string => `The server answers in ${rttMs} ms.`;

export const serverSlowText = (rttMs: number): string =>
  `The server takes ${rttMs} ms to answer: the call may lag.`;

export const serverDownText = (why: string): string => `The server could not be reached (${why}).`;

type Device = 'camera' | 'microphone';

/** A camera or microphone the browser may not use, cannot find, or cannot start. */
export const MEDIA_FAILURE_TEXTS = {
  notAllowed: (device: Device) => `The browser is not allowed to use your ${device}.`,
  notAllowedAdvice: (device: Device) =>
    `Allow the ${device} for this site (the camera icon in the address bar, or the browser's site settings), then check again.`,
  notFound: (device: Device) => `No ${device} was found.`,
  notFoundAdvice: (device: Device) => `Connect a ${device} (or use a device that has one), then check again.`,
  busy: (device: Device) => `Your ${device} is in use or not working.`,
  busyAdvice: (device: Device) =>
    `Close other apps that may use the ${device} (video calls, recorders), then check again.`,
  notStarted: (device: Device) => `Your ${device} could not be started.`,
} as const;
