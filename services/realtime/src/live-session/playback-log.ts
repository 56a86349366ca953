import { PLAYBACK_SEEK_TOLERANCE_S, type PlaybackEvent } from '@uis/proto';
import type { StoredVideoStatus } from '../room-state/room-state';

/** Where a status has the video at server time `now` (seconds): moved on at its rate while playing. */
export const positionAt = (status: StoredVideoStatus, now: number): number =>
  status.paused
    ? status.currentTime
    : status.currentTime + (Math.max(0, now - status.at) / 1000) * status.playbackRate;

/**
 * What the researcher's player did between two of its statuses, for the playback log. The client
 * also sends a status on a sync request, after a reconnect and to confirm a seek: a status where the
 * previous one would have the video by now, playing or paused as it was, at its rate, is none. The
 * first status is a 'play' when playing (a paused player at its start has done nothing yet).
 */
export function playbackEvents(previous: StoredVideoStatus | null, next: StoredVideoStatus): PlaybackEvent[] {
  if (!previous) return next.paused ? [] : ['play'];
  const events: PlaybackEvent[] = [];
  if (Math.abs(next.currentTime - positionAt(previous, next.at)) > PLAYBACK_SEEK_TOLERANCE_S) {
    events.push('seek');
  }
  if (next.playbackRate !== previous.playbackRate) events.push('rate');
  if (next.paused !== previous.paused) events.push(next.paused ? 'pause' : 'play');
  return events;
}
