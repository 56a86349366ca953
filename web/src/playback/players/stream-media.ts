import type { PlayerAdapter } from './player';
import { hostOf, mediaElementError, StreamPlayerError } from './stream-errors';
import {
  abortReason,
  createStreamVideo,
  mountStreamView,
  type StreamPlayerOptions,
  type StreamView,
} from './stream-view';
import { videoElementPlayer } from './video-element-player';
import { streamNotLoadingText } from '../../i18n/en/playback';

/** A stream that has not even told its duration after this long is not coming. */
export const STREAM_LOAD_TIMEOUT_MS = 30_000;

const HAVE_METADATA = 1;

/**
 * The live page's <video> adapter (video-element-player.ts) over a stream's element, owning it:
 * `destroy` also stops what feeds the element (hls.js, dash.js), empties it (a removed <video> may
 * keep downloading) and removes the player's box.
 */
export function streamVideoAdapter(
  video: HTMLVideoElement,
  view: StreamView,
  release: () => void = () => {},
): PlayerAdapter {
  const player = videoElementPlayer(video);
  let destroyed = false;
  return {
    ...player,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      player.destroy();
      release();
      video.removeAttribute('src');
      video.load();
      view.remove();
    },
  };
}

/**
 * Resolves once `video` knows its duration and can seek (loadedmetadata); rejects with words for
 * the video area when it errors (or `failure` does: hls.js and dash.js report their own), when
 * nothing comes within STREAM_LOAD_TIMEOUT_MS, or when `signal` aborts.
 */
export function untilLoaded(
  video: HTMLVideoElement,
  url: string,
  { signal, failure }: { signal?: AbortSignal; failure?: Promise<never> } = {},
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      video.removeEventListener('loadedmetadata', onLoaded);
      video.removeEventListener('error', onError);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onLoaded = () => settle(resolve);
    const onError = () => settle(() => reject(mediaElementError(video.error, url)));
    const onAbort = () => settle(() => reject(abortReason(signal as AbortSignal)));
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new StreamPlayerError(
              'timeout',
              streamNotLoadingText(hostOf(url), STREAM_LOAD_TIMEOUT_MS / 1000),
            ),
          ),
        ),
      STREAM_LOAD_TIMEOUT_MS,
    );
    if (signal?.aborted) return onAbort();
    if (video.readyState >= HAVE_METADATA) return onLoaded();
    video.addEventListener('loadedmetadata', onLoaded);
    video.addEventListener('error', onError);
    signal?.addEventListener('abort', onAbort);
    failure?.catch((error: Error) => settle(() => reject(error)));
  });
}

/**
 * Plays `url` in `video` by itself (a media file, or HLS where the browser has it built in):
 * resolves once it can be controlled; a later error shows in the video area.
 */
export async function playInVideo(
  view: StreamView,
  video: HTMLVideoElement,
  url: string,
  { signal }: StreamPlayerOptions,
): Promise<PlayerAdapter> {
  const adapter = streamVideoAdapter(video, view);
  video.src = url;
  try {
    await untilLoaded(video, url, { signal });
  } catch (error) {
    adapter.destroy();
    throw error;
  }
  video.addEventListener('error', () => view.showError(mediaElementError(video.error, url).message));
  return adapter;
}

/** A direct media URL (.mp4, .webm, .ogg, .ogv, .mov) in a <video>. */
export function createMediaPlayer(
  container: HTMLElement,
  url: string,
  options: StreamPlayerOptions = {},
): Promise<PlayerAdapter> {
  const view = mountStreamView(container, 'media');
  return playInVideo(view, createStreamVideo(view, options), url, options);
}
