import { PLAYBACK_RATE_MAX, PLAYBACK_RATE_MIN } from '@uis/proto/browser';
import type { PlayerAdapter, PlayerEvent } from './player';
import { PLAYBACK_ERROR_TEXTS } from '../../i18n/en/playback';

/** How a <video> this module creates starts out. */
export interface VideoElementOptions {
  /** The browser's own controls (the researcher's: play, pause, seek, rate). */
  controls?: boolean;
  /** Starts muted (participants; also what lets most browsers autoplay it). */
  muted?: boolean;
  /** The element's accessible name. */
  label?: string;
  /** Set on the element for styling. */
  className?: string;
  /** Aborting it stops and removes a player still loading (the page left meanwhile). */
  signal?: AbortSignal;
}

/** HTMLMediaElement's readyState values (named here: jsdom lacks the constants). */
const HAVE_METADATA = 1;
const HAVE_CURRENT_DATA = 2;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** `rgba(r, g, b, a)` with the alpha as a 0-1 fraction (what CSS writes and records accepts). */
const rgbaText = (r: number, g: number, b: number, a: number) =>
  `rgba(${r}, ${g}, ${b}, ${Number((a / 255).toFixed(3))})`;

/**
 * A PlayerAdapter over any HTML <video> (an uploaded file, a stream's direct media, a video that
 * hls.js or dash.js feeds): the element's own events and properties, nothing more. The caller keeps
 * the element; `destroy` only stops listening and pausing it. `createVideoElementPlayer` makes one
 * that owns its element.
 */
export function videoElementPlayer(video: HTMLVideoElement): PlayerAdapter {
  const listeners = new Set<[PlayerEvent, () => void]>();
  // One 1x1 canvas, reused: a click samples one pixel of the current frame.
  let canvas: HTMLCanvasElement | undefined;

  return {
    currentTime: () => video.currentTime,
    paused: () => video.paused,
    playbackRate: () => video.playbackRate,
    play: () => Promise.resolve(video.play()),
    pause: () => video.pause(),
    seek(seconds) {
      const end = Number.isFinite(video.duration) ? video.duration : Infinity;
      video.currentTime = clamp(seconds, 0, end);
    },
    setPlaybackRate(rate) {
      video.playbackRate = clamp(rate, PLAYBACK_RATE_MIN, PLAYBACK_RATE_MAX);
    },
    muted: () => video.muted,
    setMuted(muted) {
      video.muted = muted;
    },
    on(event, listener) {
      const entry: [PlayerEvent, () => void] = [event, listener];
      listeners.add(entry);
      video.addEventListener(event, listener);
      return () => {
        listeners.delete(entry);
        video.removeEventListener(event, listener);
      };
    },
    colorAt(x, y) {
      const { videoWidth, videoHeight } = video;
      if (video.readyState < HAVE_CURRENT_DATA || !videoWidth || !videoHeight) return null;
      canvas ??= document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context) return null;
      const sx = clamp(Math.floor(x * videoWidth), 0, videoWidth - 1);
      const sy = clamp(Math.floor(y * videoHeight), 0, videoHeight - 1);
      try {
        context.clearRect(0, 0, 1, 1);
        context.drawImage(video, sx, sy, 1, 1, 0, 0, 1, 1);
        const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
        return rgbaText(r, g, b, a);
      } catch {
        // A frame from another origin without CORS taints the canvas: it cannot be read.
        return null;
      }
    },
    destroy() {
      for (const [event, listener] of listeners) video.removeEventListener(event, listener);
      listeners.clear();
      video.pause();
    },
  };
}

/** MediaError's codes (the global itself is missing where there is no media pipeline, e.g. jsdom). */
const MEDIA_ERR = { ABORTED: 1, NETWORK: 2, DECODE: 3, SRC_NOT_SUPPORTED: 4 } as const;

/** Why a <video> could not load its source, in words. */
export function mediaErrorText(error: Pick<MediaError, 'code'> | null): string {
  switch (error?.code) {
    case MEDIA_ERR.ABORTED:
      return PLAYBACK_ERROR_TEXTS.videoStopped;
    case MEDIA_ERR.NETWORK:
      return PLAYBACK_ERROR_TEXTS.videoNotDownloaded;
    case MEDIA_ERR.DECODE:
      return PLAYBACK_ERROR_TEXTS.videoNotDecoded;
    case MEDIA_ERR.SRC_NOT_SUPPORTED:
      return PLAYBACK_ERROR_TEXTS.videoNotSupported;
    default:
      return PLAYBACK_ERROR_TEXTS.videoNotLoaded;
  }
}

/**
 * A <video> for `src`, appended to `container`, as a PlayerAdapter once its metadata is in (so its
 * duration and size are known and it can be seeked); rejects with the reason when it cannot load.
 * Its `destroy` also removes the element and releases the download.
 */
export function createVideoElementPlayer(
  container: HTMLElement,
  src: string,
  options: VideoElementOptions = {},
): Promise<PlayerAdapter> {
  const video = document.createElement('video');
  video.preload = 'auto';
  video.playsInline = true;
  video.controls = options.controls ?? false;
  video.muted = options.muted ?? false;
  // The attribute too: the autoplay policy and a reload read it.
  video.defaultMuted = options.muted ?? false;
  if (options.label) video.setAttribute('aria-label', options.label);
  if (options.className) video.className = options.className;
  video.src = src;
  container.append(video);

  const player = videoElementPlayer(video);
  const destroy = () => {
    player.destroy();
    video.removeAttribute('src');
    video.load();
    video.remove();
  };
  const owned: PlayerAdapter = { ...player, destroy };

  const { signal } = options;
  return new Promise((resolve, reject) => {
    const done = () => {
      video.removeEventListener('loadedmetadata', onLoaded);
      video.removeEventListener('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: Error) => {
      done();
      destroy();
      reject(error);
    };
    const onLoaded = () => {
      done();
      resolve(owned);
    };
    const onError = () => fail(new Error(mediaErrorText(video.error)));
    const onAbort = () => fail(new DOMException('The video is no longer wanted.', 'AbortError'));
    if (signal?.aborted) return onAbort();
    video.addEventListener('loadedmetadata', onLoaded);
    video.addEventListener('error', onError);
    signal?.addEventListener('abort', onAbort);
    if (video.readyState >= HAVE_METADATA) onLoaded();
  });
}
