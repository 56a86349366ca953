import {
  PLAYBACK_ERROR_TEXTS,
  streamInterruptedText,
  streamNotDownloadedText,
  streamNotPlayableText,
} from '../../i18n/en/playback';

/**
 * Why a stream cannot be played, in words for the video area: the live page shows the message of
 * what `createStreamPlayer` rejects with, and a player that fails later shows it over its picture.
 */
export type StreamErrorCode =
  /** The source is no URL a stream player knows (neither v= nor a media file). */
  | 'not-a-stream'
  /** YouTube's IFrame API script did not load (offline, blocked by an extension or a firewall). */
  | 'youtube-api'
  /** YouTube's player refused the video (onError: unknown id, private, embedding forbidden...). */
  | 'youtube-video'
  /** The HLS or DASH player library (its own chunk) did not load: usually a new deploy. */
  | 'player-load'
  /** The browser cannot play this kind of stream at all. */
  | 'unsupported'
  /** The media, playlist or manifest could not be downloaded. */
  | 'network'
  /** It downloaded but is not a stream the browser can decode. */
  | 'media'
  /** Nothing answered in time. */
  | 'timeout';

export class StreamPlayerError extends Error {
  override readonly name = 'StreamPlayerError';

  constructor(
    readonly code: StreamErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The host a URL points at, to name it in a message (never the path: it may carry a token). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return PLAYBACK_ERROR_TEXTS.itsAddress;
  }
}

/** `error.code` of an HTMLMediaElement's MediaError, with what each means for a stream URL. */
export function mediaElementError(error: MediaError | null, url: string): StreamPlayerError {
  switch (error?.code) {
    case 1: // MEDIA_ERR_ABORTED
      return new StreamPlayerError('network', streamInterruptedText(hostOf(url)));
    case 2: // MEDIA_ERR_NETWORK
      return new StreamPlayerError('network', streamNotDownloadedText(hostOf(url)));
    case 3: // MEDIA_ERR_DECODE
      return new StreamPlayerError('media', PLAYBACK_ERROR_TEXTS.streamNotDecoded);
    default:
      // MEDIA_ERR_SRC_NOT_SUPPORTED is also what a 404 or an HTML page gives: say both.
      return new StreamPlayerError('media', streamNotPlayableText(hostOf(url)));
  }
}

/** The DOMException a media element's play() rejects with, for the players that are no <video>. */
export const playNotAllowed = (): DOMException =>
  new DOMException('The browser did not let the video start without a click.', 'NotAllowedError');
export const playAborted = (): DOMException =>
  new DOMException('The play() request was interrupted by a call to pause().', 'AbortError');
