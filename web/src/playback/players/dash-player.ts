import { MediaPlayer, supportsMediaSource, type MediaPlayerClass } from 'dashjs';
import type { PlayerAdapter } from './player';
import { hostOf, mediaElementError, StreamPlayerError } from './stream-errors';
import { streamVideoAdapter, untilLoaded } from './stream-media';
import { createStreamVideo, mountStreamView, throwIfAborted, type StreamPlayerOptions } from './stream-view';
import {
  dashManifestNotLoadedText,
  dashSegmentsNotLoadedText,
  noDashManifestText,
  PLAYBACK_ERROR_TEXTS,
} from '../../i18n/en/playback';

/**
 * A DASH manifest (.mpd) in a <video> through dash.js (the `dashjs` package; `dash.js` on npm is
 * another project). This module and dash.js are one chunk of their own, imported only for such a source.
 */

/** dash.js's error codes (MediaPlayerErrors) that end playback, with what each means. */
const MANIFEST_UNREADABLE = new Set([10, 31, 32, 34]);
const MANIFEST_UNREACHABLE = new Set([11, 25]);
const UNSUPPORTED = new Set([23, 35]);
const SEGMENTS_UNREACHABLE = new Set([17, 27, 28]);

/** An ERROR event's code in words for the video area, or null for one dash.js lives with. */
export function dashErrorOf(code: number | undefined, url: string): StreamPlayerError | null {
  const host = hostOf(url);
  if (code === undefined) return null;
  if (MANIFEST_UNREACHABLE.has(code)) {
    return new StreamPlayerError('network', dashManifestNotLoadedText(host));
  }
  if (MANIFEST_UNREADABLE.has(code)) {
    return new StreamPlayerError('media', noDashManifestText(host));
  }
  if (UNSUPPORTED.has(code)) {
    return new StreamPlayerError('media', PLAYBACK_ERROR_TEXTS.dashCodecs);
  }
  if (SEGMENTS_UNREACHABLE.has(code)) {
    return new StreamPlayerError('network', dashSegmentsNotLoadedText(host));
  }
  return null;
}

/** The payload of dash.js's ERROR event: `error` is an object with a code (or, for old kinds, a word). */
const codeOf = (event: unknown): number | undefined => {
  const error = (event as { error?: unknown }).error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
};

export async function createDashPlayer(
  container: HTMLElement,
  url: string,
  options: StreamPlayerOptions = {},
): Promise<PlayerAdapter> {
  throwIfAborted(options.signal);
  if (!supportsMediaSource()) {
    throw new StreamPlayerError('unsupported', PLAYBACK_ERROR_TEXTS.dashUnsupported);
  }
  const view = mountStreamView(container, 'dash');
  const video = createStreamVideo(view, options);
  const dash: MediaPlayerClass = MediaPlayer().create();
  const adapter = streamVideoAdapter(video, view, () => dash.destroy());
  let started = false;
  let failStart: (error: StreamPlayerError) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failStart = reject));

  const fail = (error: StreamPlayerError) => (started ? view.showError(error.message) : failStart(error));
  dash.on(MediaPlayer.events.ERROR, (event: unknown) => {
    const error = dashErrorOf(codeOf(event), url);
    if (error) fail(error);
  });
  dash.on(MediaPlayer.events.PLAYBACK_ERROR, () => fail(mediaElementError(video.error, url)));
  dash.initialize(video, url, false);

  try {
    await untilLoaded(video, url, { signal: options.signal, failure });
  } catch (error) {
    adapter.destroy();
    throw error;
  }
  started = true;
  return adapter;
}
