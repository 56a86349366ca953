import Hls, { type ErrorData } from 'hls.js';
import type { PlayerAdapter } from './player';
import { hostOf, StreamPlayerError } from './stream-errors';
import { playInVideo, streamVideoAdapter, untilLoaded } from './stream-media';
import { createStreamVideo, mountStreamView, throwIfAborted, type StreamPlayerOptions } from './stream-view';
import {
  hlsPlaylistNotLoadedText,
  hlsSegmentsNotLoadedText,
  httpStatusText,
  noHlsPlaylistText,
  PLAYBACK_ERROR_TEXTS,
} from '../../i18n/en/playback';

/**
 * An HLS playlist (.m3u8) in a <video>: through hls.js (Media Source Extensions) where it runs, else
 * the browser's own HLS (Safari, iOS) where the <video> says it can play it. This module and hls.js
 * are one chunk of their own, imported only for such a source.
 */

const NATIVE_HLS_TYPES = ['application/vnd.apple.mpegurl', 'application/x-mpegURL'];

/** A fatal hls.js error in words for the video area. */
export function hlsErrorOf(data: ErrorData, url: string): StreamPlayerError {
  const host = hostOf(url);
  const status = data.response?.code ? httpStatusText(data.response.code) : '';
  switch (data.details) {
    case Hls.ErrorDetails.MANIFEST_LOAD_ERROR:
    case Hls.ErrorDetails.MANIFEST_LOAD_TIMEOUT:
      return new StreamPlayerError('network', hlsPlaylistNotLoadedText(host, status));
    case Hls.ErrorDetails.MANIFEST_PARSING_ERROR:
      return new StreamPlayerError('media', noHlsPlaylistText(host));
    case Hls.ErrorDetails.MANIFEST_INCOMPATIBLE_CODECS_ERROR:
    case Hls.ErrorDetails.BUFFER_INCOMPATIBLE_CODECS_ERROR:
      return new StreamPlayerError('media', PLAYBACK_ERROR_TEXTS.hlsCodecs);
    default:
      return data.type === Hls.ErrorTypes.NETWORK_ERROR
        ? new StreamPlayerError('network', hlsSegmentsNotLoadedText(host, status))
        : new StreamPlayerError('media', PLAYBACK_ERROR_TEXTS.hlsNotDecoded);
  }
}

export async function createHlsPlayer(
  container: HTMLElement,
  url: string,
  options: StreamPlayerOptions = {},
): Promise<PlayerAdapter> {
  throwIfAborted(options.signal);
  const view = mountStreamView(container, 'hls');
  const video = createStreamVideo(view, options);

  if (!Hls.isSupported()) {
    if (NATIVE_HLS_TYPES.some((type) => video.canPlayType(type) !== ''))
      return playInVideo(view, video, url, options);
    view.remove();
    throw new StreamPlayerError('unsupported', PLAYBACK_ERROR_TEXTS.hlsUnsupported);
  }

  const hls = new Hls();
  const adapter = streamVideoAdapter(video, view, () => hls.destroy());
  let started = false;
  let recoveredAt = -Infinity;
  let failStart: (error: StreamPlayerError) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failStart = reject));

  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal) return;
    if (!started) return failStart(hlsErrorOf(data, url));
    // A media error once in a while is recoverable (hls.js's advice); a second one soon after is not.
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR && performance.now() - recoveredAt > 10_000) {
      recoveredAt = performance.now();
      hls.recoverMediaError();
      return;
    }
    view.showError(hlsErrorOf(data, url).message);
  });
  hls.attachMedia(video);
  hls.loadSource(url);

  try {
    await untilLoaded(video, url, { signal: options.signal, failure });
  } catch (error) {
    adapter.destroy();
    throw error;
  }
  started = true;
  return adapter;
}
