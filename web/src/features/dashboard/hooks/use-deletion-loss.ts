import type { Session } from '@uis/proto';
import { useQueries } from '@tanstack/react-query';
import { apiKey, useApiQuery } from '../../../api/queries';
import { call } from '../../../api/client';
import type { DeletionLoss } from '../../../i18n/en/dashboard';

/** What is deleted: one session (its card knows its type), or a group with every session in it. */
export type DeletionTarget =
  { kind: 'session'; session: Pick<Session, 'session_id' | 'type'> } | { kind: 'group'; groupId: string };

export type DeletionLossState =
  | { state: 'counting' }
  /** Something could not be counted: the dialog says so, and still lets the researcher delete. */
  | { state: 'unknown' }
  | {
      state: 'counted';
      loss: DeletionLoss;
      /** A session's uploaded video, null when none. */ videoName: string | null;
    };

/**
 * Counts what a deletion loses, for its confirmation: records answers the messages and clicks
 * (`getRecordCounts`), content each video session's upload (`getVideoInfo`; only video sessions
 * can hold one: leaving the type removes it). No toasts: the dialog says what is not known.
 */
export function useDeletionLoss(target: DeletionTarget): DeletionLossState {
  const isGroup = target.kind === 'group';
  const counts = useApiQuery(
    'getRecordCounts',
    isGroup ? { groupId: target.groupId } : { sessionId: target.session.session_id },
  );
  // The group's sessions: the dashboard has them already when the group is the selected one.
  const groupSessions = useApiQuery(
    'getSessions',
    { groupId: isGroup ? target.groupId : '' },
    { enabled: isGroup },
  );
  const sessions = isGroup ? (groupSessions.data?.sessions ?? []) : [target.session];
  const videoSessions = sessions.filter((session) => session.type === 'video');
  const videos = useQueries({
    queries: videoSessions.map((session) => {
      const input = { sessionId: session.session_id };
      return {
        queryKey: apiKey('getVideoInfo', input),
        queryFn: ({ signal }: { signal: AbortSignal }) => call('getVideoInfo', input, signal),
      };
    }),
  });

  if (counts.isError || groupSessions.isError || videos.some((video) => video.isError))
    return { state: 'unknown' };
  const loaded = (isGroup ? groupSessions.data : true) && videos.every((video) => video.data);
  if (!counts.data || !loaded) return { state: 'counting' };
  const names = videos.map((video) => video.data?.name ?? null);
  return {
    state: 'counted',
    loss: { ...counts.data, videos: names.filter((name) => name !== null).length },
    videoName: isGroup ? null : (names[0] ?? null),
  };
}
