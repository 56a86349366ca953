import { apiUrl } from '../../../config/app-config';
import { UI_TEXTS } from '@uis/proto/browser';
import type { Prompt, SessionInfo } from '@uis/proto';
import type { LiveConnection } from '@uis/live-client';
import { lazy, Suspense, useCallback } from 'react';
import { useApiQuery } from '../../../api/queries';
import type { PlaybackRole } from '../../../playback/sync/playback-sync';
import { createVideoElementPlayer } from '../../../playback/players/video-element-player';
import { videoAssetPath } from '../../../playback/players/video-asset';
import type { MakePlayer } from '../../../components/player/use-player-in';
import { PlayerStage } from './player-stage';
import { COMMON_TEXTS, streamNotPlayedText } from '../../../i18n/en/common';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

// The camera call (PeerJS) loads only for chat sessions.
const CallArea = lazy(() => import('./call-area').then((module) => ({ default: module.CallArea })));

export interface SessionStageProps {
  sessionId: string;
  info: SessionInfo;
  role: PlaybackRole;
  connection: LiveConnection | null;
  allowClicks: boolean;
  user: { id: string; name: string };
  prompts: readonly Prompt[] | undefined;
}

/** The researcher has the player's controls; a participant's player has none and starts muted. */
const playerOptions = (role: PlaybackRole) => ({
  controls: role === 'owner',
  muted: role === 'participant',
  label: LIVE_CONTROL_TEXTS.sessionVideo,
});

type StageCommon = Omit<SessionStageProps, 'info' | 'user'> & { userName: string };

/** The video area by session type (spec section 1): the uploaded video, a stream, or the camera call. */
export function SessionStage({ info, user, ...rest }: SessionStageProps) {
  const common: StageCommon = { ...rest, userName: user.name };
  if (info.type === 'video') return <UploadedVideoStage {...common} />;
  if (info.type === 'stream') return <StreamStage {...common} source={info.source} />;
  if (!rest.connection) return null;
  return (
    <Suspense fallback={<p className="live-player-loading">{LIVE_SESSION_TEXTS.loadingCall}</p>}>
      <CallArea sessionId={rest.sessionId} connection={rest.connection} role={rest.role} userId={user.id} />
    </Suspense>
  );
}

function UploadedVideoStage(props: StageCommon) {
  const { sessionId, role } = props;
  const video = useApiQuery('getVideoInfo', { sessionId }, { errorText: UI_TEXTS.errorGettingVideoInfo });
  const name = video.data?.name ?? null;
  const make = useCallback<MakePlayer>(
    (container, signal) =>
      createVideoElementPlayer(container, apiUrl(videoAssetPath(sessionId, name ?? '')), {
        // The researcher runs the playback with the browser's controls; participants follow, muted.
        ...playerOptions(role),
        className: 'live-video-element',
        signal,
      }),
    [sessionId, name, role],
  );
  if (video.isPending) return <p className="live-player-loading">{COMMON_TEXTS.loadingVideo}</p>;
  if (video.isError) return <p className="live-player-failure">{UI_TEXTS.errorGettingVideoInfo}</p>;
  if (!name) {
    return (
      <p className="live-player-failure">
        {role === 'owner' ? LIVE_SESSION_TEXTS.noVideoOwner : LIVE_SESSION_TEXTS.noVideo}
      </p>
    );
  }
  return <PlayerStage {...props} kind="video" make={make} />;
}

function StreamStage({ source, ...props }: StageCommon & { source: string }) {
  const { role } = props;
  // The stream players (and their libraries) load only for stream sessions.
  const make = useCallback<MakePlayer>(
    (container, signal) =>
      import('../../../playback/players/stream-player')
        .then((module) => module.createStreamPlayer(container, source, { ...playerOptions(role), signal }))
        .catch((error: unknown) => {
          const why = error instanceof Error ? error.message : String(error);
          throw new Error(streamNotPlayedText(why));
        }),
    [source, role],
  );
  if (!source.trim()) return <p className="live-player-failure">{LIVE_SESSION_TEXTS.noStreamSource}</p>;
  return <PlayerStage {...props} kind="stream" make={make} />;
}
