import type { SessionInfo } from '@uis/proto';

/** What the replay plays: the session's uploaded video, or its stream's URL. */
export type ReplaySource = { kind: 'video'; name: string } | { kind: 'stream'; url: string };

/**
 * The replay's source, or null when there is nothing to replay: a chat session, a video session with
 * no upload yet (`videoName` null), a stream session with no URL.
 */
export function replaySource(
  info: Pick<SessionInfo, 'type' | 'source'>,
  videoName: string | null,
): ReplaySource | null {
  if (info.type === 'video') return videoName ? { kind: 'video', name: videoName } : null;
  if (info.type === 'stream') {
    const url = info.source.trim();
    return url ? { kind: 'stream', url } : null;
  }
  return null;
}
