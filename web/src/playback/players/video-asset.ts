import { ASSETS_PATH } from '@uis/proto/browser';

/**
 * Where a session's uploaded video is served (spec section 3: keyed by session id and file name).
 * proto's `videoAssetPath` lives beside the route's zod schema, which the browser does not bundle:
 * this is the same path from the zod-free constants, and a test holds the two equal.
 */
export const videoAssetPath = (sessionId: string, name: string): string =>
  `${ASSETS_PATH}/${encodeURIComponent(sessionId)}/${encodeURIComponent(name)}`;
