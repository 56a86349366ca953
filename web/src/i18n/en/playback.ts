/**
 * Why a video or stream did not play, in words for the video area (the live session and the replay
 * show them). Only src/playback imports this module, so it travels in the players' chunks.
 */
export const PLAYBACK_ERROR_TEXTS = {
  dashCodecs: 'This browser cannot play the codecs of this DASH stream.',
  dashUnsupported: 'This browser cannot play DASH streams (.mpd): it lacks Media Source Extensions.',
  hlsCodecs: 'This browser cannot play the codecs of this HLS stream.',
  hlsNotDecoded: 'The HLS stream could not be played: its video could not be decoded.',
  hlsUnsupported: 'This browser cannot play HLS streams (.m3u8).',
  /** In place of a host that cannot be read from the address. */
  itsAddress: 'its address',
  streamNotDecoded: "The stream's video could not be decoded by this browser.",
  notAStream:
    "This session's source is not a stream this player can show: it needs a video page URL with " +
    'v= (https://www.youtube.com/watch?v=...) or a direct .mp4, .webm, .ogg, .ogv, .mov, .m3u8 or .mpd URL.',
  videoStopped: 'Loading the video was stopped.',
  videoNotDownloaded: 'The video could not be downloaded (a network error).',
  videoNotDecoded: 'The video could not be decoded.',
  videoNotSupported:
    'The video could not be loaded: it is missing, not allowed, or in a format this browser cannot play.',
  videoNotLoaded: 'The video could not be loaded.',
  /** Why YouTube's script did not load, inside youTubeApiNotLoadedText. */
  youTubeNoAnswer: 'no answer',
  youTubeDidNotStart: 'it did not start',
  youTubeScriptNotLoaded: 'the script did not load',
} as const;

export const dashManifestNotLoadedText = (host: string): string =>
  `The DASH manifest could not be loaded from ${host}.`;
export const noDashManifestText = (host: string): string =>
  `The address at ${host} holds no DASH manifest this player can read.`;
export const dashSegmentsNotLoadedText = (host: string): string =>
  `The DASH stream stopped: its segments could not be loaded from ${host}.`;

/** `status` is ' (HTTP 404)', or empty. */
export const httpStatusText = (code: number): string => ` (HTTP ${code})`;
export const hlsPlaylistNotLoadedText = (host: string, status: string): string =>
  `The HLS playlist could not be loaded from ${host}${status}.`;
export const noHlsPlaylistText = (host: string): string =>
  `The address at ${host} holds no valid HLS playlist.`;
export const hlsSegmentsNotLoadedText = (host: string, status: string): string =>
  `The HLS stream stopped: its segments could not be loaded from ${host}${status}.`;

export const streamInterruptedText = (host: string): string =>
  `Loading the stream from ${host} was interrupted.`;
export const streamNotDownloadedText = (host: string): string =>
  `The stream could not be downloaded from ${host}.`;
export const streamNotPlayableText = (host: string): string =>
  `The stream at ${host} cannot be played: the address holds no video this browser can play ` +
  '(the file is missing, or its format is not supported).';
export const streamNotLoadingText = (host: string, seconds: number): string =>
  `The stream at ${host} did not start loading within ${seconds} seconds.`;
export const playerNotLoadedText = (library: string): string =>
  `The ${library} player could not be loaded. Check the connection and reload the page.`;
export const noYouTubeVideoText = (v: string): string =>
  `This session's video URL names no video YouTube can play (v=${v}): copy the address of the video page again.`;

export const youTubeApiNotLoadedText = (why: string): string =>
  `YouTube's player could not be loaded (${why}). Check the connection, or whether something blocks youtube.com, and reload the page.`;
export const youTubeNotReadyText = (seconds: number): string =>
  `YouTube's player did not start within ${seconds} seconds. Check the connection and reload the page.`;

/** YouTube's onError codes (iframe_api_reference, "onError"). */
export const YOUTUBE_ERROR_TEXTS = {
  2: "YouTube rejected the video id in this session's URL: copy the address of the video page again.",
  5: "YouTube's player cannot play this video in this browser.",
  100: 'This YouTube video does not exist any more, or it is private.',
  101: 'The owner of this YouTube video does not allow it to be played on other sites.',
  153: 'YouTube refused to play the video for this page (it did not receive the referrer it asks for).',
} as const;
export const youTubeFailedText = (code: number): string => `YouTube's player failed (error ${code}).`;
