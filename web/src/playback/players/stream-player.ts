import type { PlayerAdapter } from './player';
import { StreamPlayerError } from './stream-errors';
import { streamSourceOf } from './stream-source';
import { createMediaPlayer } from './stream-media';
import type { StreamPlayerOptions } from './stream-view';
import { createYouTubePlayer } from './youtube-player';
import { playerNotLoadedText } from '../../i18n/en/playback';

export { StreamPlayerError, type StreamErrorCode } from './stream-errors';
export type { StreamPlayerOptions } from './stream-view';

/** A player library's chunk that does not load is a stale page after a deploy, or the network. */
const chunkFailed = (library: string) => (cause: unknown) => {
  throw new StreamPlayerError('player-load', playerNotLoadedText(library), { cause });
};

/**
 * A stream session's player for its source URL (spec section 1: a hosted video URL with v=, or a
 * direct media URL), built inside `container`: a v= URL through that site's IFrame player API
 * (YouTube's, its script loaded at run time), .m3u8 through hls.js and .mpd through dash.js (each
 * loaded only for them, a chunk of its own), any other media URL in a <video>. Resolves once the
 * player can be controlled; rejects with a StreamPlayerError whose message says, for the video area,
 * why the source cannot be played. `options.controls: false` for a participant (no controls, clicks
 * go through to the area); `options.signal` cancels a player still loading.
 */
export async function createStreamPlayer(
  container: HTMLElement,
  source: string,
  options: StreamPlayerOptions = {},
): Promise<PlayerAdapter> {
  const stream = streamSourceOf(source);
  switch (stream.kind) {
    case 'youtube':
      return createYouTubePlayer(container, stream.videoId, options);
    case 'hls': {
      const { createHlsPlayer } = await import('./hls-player').catch(chunkFailed('HLS'));
      return createHlsPlayer(container, stream.url, options);
    }
    case 'dash': {
      const { createDashPlayer } = await import('./dash-player').catch(chunkFailed('DASH'));
      return createDashPlayer(container, stream.url, options);
    }
    case 'media':
      return createMediaPlayer(container, stream.url, options);
  }
}
