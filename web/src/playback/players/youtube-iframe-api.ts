import { StreamPlayerError } from './stream-errors';
import { PLAYBACK_ERROR_TEXTS, youTubeApiNotLoadedText } from '../../i18n/en/playback';

/**
 * YouTube's IFrame player API, loaded at run time from YouTube (its terms forbid bundling it, and
 * the CSP allows scripts from https://www.youtube.com for it). Only what the stream player uses is
 * typed here: https://developers.google.com/youtube/iframe_api_reference
 */

export const YOUTUBE_IFRAME_API_URL = 'https://www.youtube.com/iframe_api';
/** The API script and its widget script are small: no answer in this long means blocked or offline. */
export const YOUTUBE_API_TIMEOUT_MS = 15_000;

/** YT.PlayerState. */
export const YT_STATE = {
  UNSTARTED: -1,
  ENDED: 0,
  PLAYING: 1,
  PAUSED: 2,
  BUFFERING: 3,
  CUED: 5,
} as const;

/** The YT.Player methods the adapter drives (YouTube adds them once onReady has fired). */
export interface YouTubePlayerLike {
  playVideo(): void;
  pauseVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  setPlaybackRate(rate: number): void;
  getPlaybackRate(): number;
  getCurrentTime(): number;
  getPlayerState(): number;
  mute(): void;
  unMute(): void;
  isMuted(): boolean;
  destroy(): void;
}

export interface YouTubePlayer extends YouTubePlayerLike {
  getIframe(): HTMLIFrameElement;
}

export interface YouTubeEvent<T = unknown> {
  target: YouTubePlayer;
  data: T;
}

export interface YouTubePlayerOptions {
  videoId: string;
  width?: string | number;
  height?: string | number;
  host?: string;
  playerVars?: Record<string, string | number>;
  events?: {
    onReady?: (event: YouTubeEvent<undefined>) => void;
    onStateChange?: (event: YouTubeEvent<number>) => void;
    onPlaybackRateChange?: (event: YouTubeEvent<number>) => void;
    onError?: (event: YouTubeEvent<number>) => void;
  };
}

export interface YouTubeNamespace {
  /** Absent while the loader's widget script is still on its way. */
  Player: new (element: HTMLElement | string, options: YouTubePlayerOptions) => YouTubePlayer;
}

declare global {
  interface Window {
    YT?: YouTubeNamespace;
    /** YouTube's API calls it once it is ready. */
    onYouTubeIframeAPIReady?: () => void;
  }
}

let loading: Promise<YouTubeNamespace> | null = null;

const apiReady = (): YouTubeNamespace | null => {
  const yt = window.YT;
  return typeof yt?.Player === 'function' ? yt : null;
};

/**
 * YouTube's IFrame API, its script added to the page once (every later call shares it). Rejects with
 * a StreamPlayerError ('youtube-api') when the script fails or the API is not ready in time; the next
 * call tries again.
 */
export function loadYouTubeIframeApi(): Promise<YouTubeNamespace> {
  const ready = apiReady();
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<YouTubeNamespace>((resolve, reject) => {
    const previous = window.onYouTubeIframeAPIReady;
    const script = document.createElement('script');
    const fail = (why: string) => {
      clearTimeout(timer);
      window.onYouTubeIframeAPIReady = previous;
      script.remove();
      loading = null;
      reject(new StreamPlayerError('youtube-api', youTubeApiNotLoadedText(why)));
    };
    const timer = setTimeout(() => fail(PLAYBACK_ERROR_TEXTS.youTubeNoAnswer), YOUTUBE_API_TIMEOUT_MS);
    window.onYouTubeIframeAPIReady = () => {
      previous?.();
      const api = apiReady();
      if (!api) return fail(PLAYBACK_ERROR_TEXTS.youTubeDidNotStart);
      clearTimeout(timer);
      resolve(api);
    };
    script.src = YOUTUBE_IFRAME_API_URL;
    script.async = true;
    script.onerror = () => fail(PLAYBACK_ERROR_TEXTS.youTubeScriptNotLoaded);
    document.head.append(script);
  });
  return loading;
}
