import type { PlayerAdapter } from './player';
import { StreamPlayerError } from './stream-errors';
import { abortReason, mountStreamView, type StreamPlayerOptions } from './stream-view';
import { YouTubeAdapter } from './youtube-adapter';
import { loadYouTubeIframeApi, type YouTubePlayer } from './youtube-iframe-api';
import { YOUTUBE_ERROR_TEXTS, youTubeFailedText, youTubeNotReadyText } from '../../i18n/en/playback';

/** The API is loaded; its player (an iframe of youtube.com) has this long to say it is ready. */
export const YOUTUBE_READY_TIMEOUT_MS = 20_000;

/** onError's codes, in words for the video area (iframe_api_reference, "onError"). */
export function youTubeErrorMessage(code: number): string {
  switch (code) {
    case 2:
    case 5:
    case 100:
    case 101:
    case 153:
      return YOUTUBE_ERROR_TEXTS[code];
    case 150:
      return YOUTUBE_ERROR_TEXTS[101];
    default:
      return youTubeFailedText(code);
  }
}

/**
 * A v= URL's video in YouTube's IFrame player, inside `container`. Resolves once the player is ready
 * to be driven; rejects (StreamPlayerError) when the API does not load or the player refuses the
 * video before that. A refusal after that (YouTube often reports it only once the video is asked to
 * play) shows over the player.
 */
export async function createYouTubePlayer(
  container: HTMLElement,
  videoId: string,
  { controls = true, muted = false, label, signal }: StreamPlayerOptions = {},
): Promise<PlayerAdapter> {
  const api = await loadYouTubeIframeApi();
  if (signal?.aborted) throw abortReason(signal);
  const view = mountStreamView(container, 'youtube');
  const target = document.createElement('div');
  view.box.append(target);

  return new Promise<PlayerAdapter>((resolve, reject) => {
    let adapter: YouTubeAdapter | null = null;
    let player: YouTubePlayer | null = null;
    const fail = (error: Error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Before onReady the player has no methods yet but destroy.
      if (typeof player?.destroy === 'function') player.destroy();
      view.remove();
      reject(error);
    };
    const onAbort = () => fail(abortReason(signal as AbortSignal));
    const timer = setTimeout(
      () => fail(new StreamPlayerError('timeout', youTubeNotReadyText(YOUTUBE_READY_TIMEOUT_MS / 1000))),
      YOUTUBE_READY_TIMEOUT_MS,
    );
    signal?.addEventListener('abort', onAbort);

    player = new api.Player(target, {
      videoId,
      width: '100%',
      height: '100%',
      playerVars: {
        // The researcher drives playback with YouTube's controls; a participant's player has none.
        controls: controls ? 1 : 0,
        disablekb: controls ? 0 : 1,
        fs: controls ? 1 : 0,
        playsinline: 1,
        mute: muted ? 1 : 0,
        rel: 0,
        iv_load_policy: 3,
        enablejsapi: 1,
        // YouTube answers only this origin's messages.
        origin: window.location.origin,
      },
      events: {
        onReady: ({ target: ready }) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          const iframe = view.box.querySelector('iframe');
          if (iframe) {
            Object.assign(iframe.style, { display: 'block', width: '100%', height: '100%', border: '0' });
            if (label) iframe.title = label;
            // Without controls the picture only shows: clicks go to the video area (click capture).
            if (!controls) iframe.style.pointerEvents = 'none';
          }
          adapter = new YouTubeAdapter(ready, { onDestroy: () => view.remove() });
          resolve(adapter);
        },
        onStateChange: ({ data }) => adapter?.stateChanged(data),
        onPlaybackRateChange: () => adapter?.rateChanged(),
        onError: ({ data }) => {
          const message = youTubeErrorMessage(data);
          if (adapter) view.showError(message);
          else fail(new StreamPlayerError('youtube-video', message));
        },
      },
    });
  });
}
