/**
 * The DOM a stream player puts in the page's video area: one box filling the area, holding the
 * <video> or YouTube's iframe, and a message over it when the stream fails after it started.
 * Styles are inline: the players are plain modules, loaded on demand, with no stylesheet of their own.
 */

/** What the live page may pass `createStreamPlayer` besides the container and the source. */
export interface StreamPlayerOptions {
  /**
   * The player's own controls (default true: the researcher controls playback with them). A
   * participant's player has none and lets clicks through to the video area, which captures them.
   */
  controls?: boolean;
  /** Starts muted (participants, spec section 6; also what lets a browser autoplay it). */
  muted?: boolean;
  /** The player's accessible name (the <video>'s aria-label, the iframe's title). */
  label?: string;
  /** Aborting it (the page left, or React's StrictMode re-ran the effect) stops and removes a player still loading. */
  signal?: AbortSignal;
}

export interface StreamView {
  /** The box inside the page's container. */
  readonly box: HTMLDivElement;
  /** Shows `message` over the picture (role alert), replacing an earlier one. */
  showError(message: string): void;
  remove(): void;
}

export function mountStreamView(container: HTMLElement, kind: string): StreamView {
  const box = document.createElement('div');
  box.className = 'stream-player';
  box.dataset.streamKind = kind;
  Object.assign(box.style, {
    position: 'relative',
    width: '100%',
    height: '100%',
    background: '#000',
    overflow: 'hidden',
  });
  container.append(box);
  let error: HTMLElement | null = null;
  return {
    box,
    showError(message) {
      error?.remove();
      error = document.createElement('p');
      error.className = 'stream-player-error';
      error.setAttribute('role', 'alert');
      error.textContent = message;
      Object.assign(error.style, {
        position: 'absolute',
        inset: '0',
        margin: '0',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: '1rem',
        textAlign: 'center',
        color: '#fff',
        background: 'rgba(0, 0, 0, 0.8)',
      });
      box.append(error);
    },
    remove: () => box.remove(),
  };
}

/** A <video> filling the box (the picture letterboxed in it, as click capture expects). */
export function createStreamVideo(
  view: StreamView,
  { controls = true, muted = false, label }: StreamPlayerOptions,
): HTMLVideoElement {
  const video = document.createElement('video');
  video.className = 'stream-player-video';
  video.controls = controls;
  video.muted = muted;
  // The attribute too: the autoplay policy reads it.
  video.defaultMuted = muted;
  if (label) video.setAttribute('aria-label', label);
  video.playsInline = true;
  video.preload = 'auto';
  Object.assign(video.style, {
    display: 'block',
    width: '100%',
    height: '100%',
    objectFit: 'contain',
    background: '#000',
  });
  view.box.append(video);
  return video;
}

/** Throws the abort reason (an AbortError) when `signal` is already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

export const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error
    ? signal.reason
    : new DOMException('The stream player was no longer wanted.', 'AbortError');
