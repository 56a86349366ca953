/**
 * The API client's own texts: what a failed request says when the server gave no reason. The login
 * route's bundle carries this module (the client is in it): keep it to these few.
 */
export const API_TEXTS = {
  uploadNotSent: 'The upload did not reach the server.',
  uploadCancelled: 'The upload was cancelled.',
} as const;

export const serverAnsweredText = (httpStatus: number): string => `The server answered ${httpStatus}.`;
