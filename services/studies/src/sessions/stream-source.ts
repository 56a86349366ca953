import type { SessionType } from '@uis/proto';

/** Files a browser video element (or an HLS/DASH player) can play straight from a URL. */
export const STREAM_MEDIA_EXTENSIONS = ['.mp4', '.webm', '.ogg', '.ogv', '.m3u8', '.mpd', '.mov'] as const;

export const STREAM_SOURCE_MESSAGE =
  'a stream needs a video page URL with a v= parameter (e.g. https://www.youtube.com/watch?v=...) ' +
  `or a direct media URL (${STREAM_MEDIA_EXTENSIONS.join(', ')})`;

/**
 * Whether `source` can feed a stream session: an http(s) URL of a hosted video page that names the
 * video in a `v=` parameter (spec section 1), or of a media file the player can load directly.
 */
export function isStreamSource(source: string): boolean {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.hostname === '') return false;
  if ((url.searchParams.get('v') ?? '').trim() !== '') return true;
  const path = url.pathname.toLowerCase();
  return STREAM_MEDIA_EXTENSIONS.some((extension) => path.endsWith(extension));
}

export const VIDEO_SOURCE_MESSAGE =
  "a video session's source is a label for its uploaded file, a file name without a scheme or a path";
export const CHAT_SOURCE_MESSAGE = "a chat session has no source: it shows the researcher's camera";

/** A video's source labels its upload (the player never loads it): a file name, never a URL. */
const isFileNameLabel = (source: string) => !/[:/\\]/.test(source);

/** What is wrong with a non-empty `source` for a session of `type`, or null when it is fine. */
export function sourceProblem(type: SessionType, source: string): string | null {
  switch (type) {
    case 'stream':
      return isStreamSource(source) ? null : STREAM_SOURCE_MESSAGE;
    case 'video':
      return isFileNameLabel(source) ? null : VIDEO_SOURCE_MESSAGE;
    case 'chat':
      return CHAT_SOURCE_MESSAGE;
  }
}
