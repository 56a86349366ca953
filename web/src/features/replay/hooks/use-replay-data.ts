import { UI_TEXTS } from '@uis/proto/browser';
import { useMemo } from 'react';
import { useApiAllPages, useApiQuery } from '../../../api/queries';
import { replayData, type ReplayData } from '../lib/replay-events';
import { COMMON_TEXTS } from '../../../i18n/en/common';

export interface ReplayRecordsState extends ReplayData {
  /** Some list is still loading. */
  loading: boolean;
  /** The playback log could not be loaded (the rest is still shown). */
  playbackFailed: boolean;
}

const EMPTY: never[] = [];

/**
 * The session's records for the replay (messages, clicks, the playback log, prompts and actions),
 * each from its own query, shared with the record panel and the edit panel by key; merged into one
 * video-time order. A list that failed counts as empty, so the others still show.
 */
export function useReplayRecords(sessionId: string): ReplayRecordsState {
  const input = { sessionId };
  // Every page: the replay places all of a session's events on its timeline.
  const messages = useApiAllPages('getMessages', input, { errorText: UI_TEXTS.errorFetchingMessages });
  const pixels = useApiAllPages('getPixels', input, { errorText: UI_TEXTS.errorFetchingPixels });
  const playback = useApiAllPages('getPlayback', input, { errorText: COMMON_TEXTS.playbackLogError });
  const prompts = useApiQuery('getPrompts', input, { errorText: UI_TEXTS.errorFetchingPrompts });
  const actions = useApiQuery('getActions', input, { errorText: UI_TEXTS.errorGettingActions });

  const data = useMemo(
    () =>
      replayData({
        messages: messages.data?.messages ?? EMPTY,
        pixels: pixels.data?.pixels ?? EMPTY,
        playback: playback.data?.playback ?? EMPTY,
        prompts: prompts.data?.prompts ?? EMPTY,
        actions: actions.data?.actions ?? EMPTY,
      }),
    [messages.data, pixels.data, playback.data, prompts.data, actions.data],
  );
  return {
    ...data,
    loading: [messages, pixels, playback, prompts, actions].some((query) => query.isPending),
    playbackFailed: playback.isError,
  };
}
