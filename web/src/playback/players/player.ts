/**
 * One face for every player of a live session: the uploaded video's <video>, a stream's <video>
 * (direct media, HLS, DASH) and YouTube's IFrame player. The playback sync, the prompts and the
 * click capture talk to this only, so each works the same for every kind of source.
 */

/** What a player tells: the researcher's play, pause, seek and rate changes, and time passing. */
export type PlayerEvent = 'play' | 'pause' | 'seeked' | 'ratechange' | 'timeupdate' | 'ended';

export interface PlayerAdapter {
  /** Seconds into the video. */
  currentTime(): number;
  paused(): boolean;
  playbackRate(): number;
  /** Starts playing; rejects (NotAllowedError) when the browser blocks autoplay without a gesture. */
  play(): Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  setPlaybackRate(rate: number): void;
  muted(): boolean;
  setMuted(muted: boolean): void;
  on(event: PlayerEvent, listener: () => void): () => void;
  /**
   * The colour of the current frame at x, y (fractions 0-1 of the video area) as `rgba(r, g, b, a)`,
   * or null where the frame cannot be read (a cross-origin stream, YouTube): the click records 'n/a'.
   */
  colorAt(x: number, y: number): string | null;
  destroy(): void;
}
