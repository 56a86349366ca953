import { useCallback, useEffect, useRef, useState } from 'react';
import type { PlayerAdapter, PlayerEvent } from '../../../playback/players/player';

/** While playing, the position is passed on at most this often (the heatmap redraws, markers light up). */
export const CLOCK_STEP_MS = 100;

const EVENTS: readonly PlayerEvent[] = ['timeupdate', 'seeked', 'play', 'pause', 'ratechange', 'ended'];

export interface VideoClock {
  /** Seconds into the video. */
  time: number;
  /** The video's length in seconds, or null while unknown (an embedded player, a live stream). */
  duration: number | null;
  /** Seeks the player; the clock shows the new position at once (scrubbing). */
  seek: (seconds: number) => void;
}

const durationOf = (video: HTMLVideoElement | null): number | null =>
  video && Number.isFinite(video.duration) && video.duration > 0 ? video.duration : null;

/**
 * The player's position, for what follows it: on the player's own events (seeked, pause, the
 * browser's timeupdate a few times a second) and, where the browser has it, each frame the video
 * presents (requestVideoFrameCallback), passed on every CLOCK_STEP_MS while playing.
 */
export function useVideoClock(player: PlayerAdapter | null, video: HTMLVideoElement | null): VideoClock {
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState<number | null>(null);
  const lastRead = useRef(0);

  useEffect(() => {
    if (!player) return;
    const read = () => {
      lastRead.current = performance.now();
      setTime(player.currentTime());
    };
    read();
    const offs = EVENTS.map((event) => player.on(event, read));

    let frame: number | null = null;
    const onFrame = () => {
      if (!video) return;
      if (performance.now() - lastRead.current >= CLOCK_STEP_MS) read();
      frame = video.requestVideoFrameCallback(onFrame);
    };
    if (video && 'requestVideoFrameCallback' in video) frame = video.requestVideoFrameCallback(onFrame);

    const readDuration = () => setDuration(durationOf(video));
    readDuration();
    video?.addEventListener('durationchange', readDuration);
    return () => {
      for (const off of offs) off();
      if (frame !== null) video?.cancelVideoFrameCallback(frame);
      video?.removeEventListener('durationchange', readDuration);
    };
  }, [player, video]);

  const seek = useCallback(
    (seconds: number) => {
      if (!player) return;
      player.seek(seconds);
      setTime(player.currentTime());
    },
    [player],
  );

  return { time, duration, seek };
}
