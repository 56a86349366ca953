import { StreamPlayerError } from './stream-errors';
import { noYouTubeVideoText, PLAYBACK_ERROR_TEXTS } from '../../i18n/en/playback';

/**
 * What plays a stream session's source. The studies service accepts (stream-source.ts there) an
 * http(s) URL with a v= parameter, or one whose path ends in a media extension; this tells them apart.
 */
export type StreamSource =
  /** A hosted video page naming its video in v=: played through YouTube's IFrame player API. */
  | { kind: 'youtube'; videoId: string }
  /** An HLS playlist (.m3u8): hls.js, or the browser's own HLS where hls.js cannot run. */
  | { kind: 'hls'; url: string }
  /** A DASH manifest (.mpd): dash.js. */
  | { kind: 'dash'; url: string }
  /** A media file a <video> plays by itself (.mp4, .webm, .ogg, .ogv, .mov). */
  | { kind: 'media'; url: string };

export type StreamKind = StreamSource['kind'];

/** The same list as the studies service's STREAM_MEDIA_EXTENSIONS, with the player each needs. */
const EXTENSION_KINDS: ReadonlyArray<readonly [string, 'hls' | 'dash' | 'media']> = [
  ['.m3u8', 'hls'],
  ['.mpd', 'dash'],
  ['.mp4', 'media'],
  ['.webm', 'media'],
  ['.ogg', 'media'],
  ['.ogv', 'media'],
  ['.mov', 'media'],
];

/** YouTube's video ids: 11 characters of the URL-safe base64 alphabet. */
const YOUTUBE_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

export const NOT_A_STREAM_MESSAGE = PLAYBACK_ERROR_TEXTS.notAStream;

const parseHttpUrl = (source: string): URL | null => {
  let url: URL;
  try {
    url = new URL(source.trim());
  } catch {
    return null;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : null;
};

/** The video id a v= URL names, or null when it names none a YouTube player could load. */
export function youTubeVideoId(source: string): string | null {
  const id = parseHttpUrl(source)?.searchParams.get('v')?.trim() ?? '';
  return YOUTUBE_VIDEO_ID.test(id) ? id : null;
}

/**
 * How to play `source`. A path ending in a media extension wins over a v= parameter
 * (`video.mp4?v=3` is a cache-busting version of a file, not a YouTube video); any other v= URL is
 * a hosted video page. Throws a StreamPlayerError ('not-a-stream') with words for the video area.
 */
export function streamSourceOf(source: string): StreamSource {
  const url = parseHttpUrl(source);
  if (!url) throw new StreamPlayerError('not-a-stream', NOT_A_STREAM_MESSAGE);
  const path = url.pathname.toLowerCase();
  const byExtension = EXTENSION_KINDS.find(([extension]) => path.endsWith(extension));
  if (byExtension) return { kind: byExtension[1], url: url.href };
  const v = url.searchParams.get('v')?.trim() ?? '';
  if (v === '') throw new StreamPlayerError('not-a-stream', NOT_A_STREAM_MESSAGE);
  if (!YOUTUBE_VIDEO_ID.test(v)) {
    throw new StreamPlayerError('not-a-stream', noYouTubeVideoText(v.slice(0, 40)));
  }
  return { kind: 'youtube', videoId: v };
}
