import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PictureSize } from '../../playback/clicks/click-capture';
import type { PlayerAdapter } from '../../playback/players/player';

/**
 * Builds a player inside `container` (an uploaded video's <video>, a stream's player, YouTube's);
 * `signal` aborts one still loading (the page left, or StrictMode ran the effect again).
 */
export type MakePlayer = (container: HTMLElement, signal: AbortSignal) => Promise<PlayerAdapter>;

export interface PlayerIn {
  /** Where the player puts its own elements (React keeps out of it). */
  hostRef: RefObject<HTMLDivElement | null>;
  player: PlayerAdapter | null;
  /** The player's <video>, when it draws into one (not an embedded player): its frames and size. */
  video: HTMLVideoElement | null;
  /** Why it could not be played, in words. */
  failure: string | null;
}

/** The picture's own size when the player draws into a <video> (an embedded player fills its area). */
export const pictureOf = (video: HTMLVideoElement | null): PictureSize | null =>
  video && video.videoWidth > 0 ? { width: video.videoWidth, height: video.videoHeight } : null;

/**
 * The player `make` builds in the host element, destroyed when `make` or `onReady` changes, or on
 * unmount (the live session's stage and the replay). `onReady` sees it before it is handed out.
 */
export function usePlayerIn(
  make: MakePlayer,
  onReady?: (player: PlayerAdapter, video: HTMLVideoElement | null) => void,
): PlayerIn {
  const hostRef = useRef<HTMLDivElement>(null);
  const [player, setPlayer] = useState<PlayerAdapter | null>(null);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const abort = new AbortController();
    let made: PlayerAdapter | null = null;
    setFailure(null);
    make(host, abort.signal).then(
      (ready) => {
        if (abort.signal.aborted) return ready.destroy();
        made = ready;
        const element = host.querySelector('video');
        onReady?.(ready, element);
        setVideo(element);
        setPlayer(ready);
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setFailure(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      abort.abort();
      made?.destroy();
      setPlayer(null);
      setVideo(null);
    };
  }, [make, onReady]);

  return { hostRef, player, video, failure };
}
