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
