import { CLICKS_OFF_TEXT, STATUS, type SessionType } from '@uis/proto/browser';
import { CLICK_MARKER_MS } from '../../../config/ui-constants';
import type { Prompt } from '@uis/proto';
import type { LiveConnection } from '@uis/live-client';
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { notify } from '../../../components/ui/toast';
import { pictureOf, usePlayerIn, type MakePlayer } from '../../../components/player/use-player-in';
import { clickFractions, clickPayload, markerPercent } from '../../../playback/clicks/click-capture';
import type { PlaybackRole } from '../../../playback/sync/playback-sync';
import type { PlayerAdapter } from '../../../playback/players/player';
import { usePlaybackSync, usePromptRunner } from '../hooks/use-playback';
import { usePresenceReport } from '../hooks/use-presence-report';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

export interface PlayerStageProps {
  sessionId: string;
  kind: Exclude<SessionType, 'chat'>;
  make: MakePlayer;
  role: PlaybackRole;
  connection: LiveConnection | null;
  allowClicks: boolean;
  userName: string;
  /** The researcher's prompts (undefined for participants, or while loading). */
  prompts: readonly Prompt[] | undefined;
}

interface Marker {
  id: number;
  left: number;
  top: number;
}

/**
 * A video or stream session's player with what the live session adds around it: the playback sync
 * (the researcher leads, participants follow), the researcher's timed prompts, and for participants
 * their own mute button, the click capture (while the researcher allows it) with its marker, and the
 * 'Click to join playback' overlay when the browser blocks playback.
 */
export function PlayerStage({
  sessionId,
  kind,
  make,
  role,
  connection,
  allowClicks,
  userName,
  prompts,
}: PlayerStageProps) {
  const [aspect, setAspect] = useState<number | null>(null);
  const [muted, setMuted] = useState(true);
  const [markers, setMarkers] = useState<Marker[]>([]);
  const markerTimers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const participant = role === 'participant';
  const onReady = useCallback(
    (ready: PlayerAdapter, video: HTMLVideoElement | null) => {
      // Participants start muted, whatever the player (spec section 6); they unmute themselves.
      if (participant) ready.setMuted(true);
      setMuted(ready.muted());
      const picture = pictureOf(video);
      setAspect(picture ? picture.width / picture.height : null);
    },
    [participant],
  );
  const { hostRef, player, video, failure } = usePlayerIn(make, onReady);

  useEffect(() => {
    const timers = markerTimers.current;
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);

  const { blocked, resume } = usePlaybackSync(player, connection, sessionId, role);
  usePromptRunner(role === 'owner' ? player : null, connection, sessionId, prompts);
  // A participant's position, for the researcher's monitor (their drift is measured from it).
  usePresenceReport(
    connection,
    sessionId,
    role === 'participant' && player && connection
      ? () => ({
          playback: {
            currentTime: player.currentTime(),
            paused: player.paused(),
            at: Math.round(connection.clock.now()),
          },
        })
      : null,
  );

  const showMarker = useCallback((left: number, top: number) => {
    const id = Date.now() + Math.random();
    setMarkers((shown) => [...shown, { id, left, top }]);
    const timer = setTimeout(() => {
      markerTimers.current.delete(timer);
      setMarkers((shown) => shown.filter((marker) => marker.id !== id));
    }, CLICK_MARKER_MS);
    markerTimers.current.add(timer);
  }, []);

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!player || !connection) return;
    const box = event.currentTarget.getBoundingClientRect();
    const picture = pictureOf(video);
    const point = clickFractions(event.clientX, event.clientY, box, picture);
    if (!point) return; // on the bars around the picture
    if (!allowClicks) {
      notify.error(LIVE_SESSION_TEXTS.clickNotRecorded, CLICKS_OFF_TEXT);
      return;
    }
    const payload = clickPayload(player, point, sessionId, userName, kind);
    const spot = markerPercent(point, box, picture);
    showMarker(spot.x, spot.y);
    connection.ask('clickVideo', payload).then(
      (answer) => {
        if (answer.status !== STATUS.SUCCESS)
          notify.error(LIVE_SESSION_TEXTS.clickNotRecorded, answer.res.message);
      },
      () => notify.error(LIVE_SESSION_TEXTS.clickNotRecorded, COMMON_TEXTS.serverTimeout),
    );
  };

  return (
    <div
      className={`live-player live-player-${kind}`}
      style={aspect ? { ['--live-aspect' as string]: String(aspect) } : undefined}
    >
      {/* The player puts its own elements in here; React keeps out of it. */}
      <div ref={hostRef} className="live-player-host" />
      {participant && player ? (
        <div
          className={`live-click-layer${allowClicks ? ' allowed' : ''}`}
          data-testid="click-layer"
          aria-hidden="true"
          onClick={onClick}
        />
      ) : null}
      {markers.map((marker) => (
        <span
          key={marker.id}
          className="live-click-marker"
          data-testid="click-marker"
          aria-hidden="true"
          style={{ left: `${marker.left}%`, top: `${marker.top}%` }}
        />
      ))}
      {participant && player ? (
        <IconButton
          icon={muted ? 'volume_off' : 'volume_up'}
          label={muted ? LIVE_CONTROL_TEXTS.unmuteVideo : LIVE_CONTROL_TEXTS.muteVideo}
          className="live-mute"
          onClick={() => {
            player.setMuted(!muted);
            setMuted(!muted);
          }}
        />
      ) : null}
      {blocked ? (
        <button type="button" className="live-join-playback" onClick={resume}>
          <Icon name="play_circle" size={48} />
          {LIVE_SESSION_TEXTS.joinPlayback}
        </button>
      ) : null}
      {failure ? (
        <p className="live-player-failure" role="alert">
          {failure}
        </p>
      ) : !player ? (
        <p className="live-player-loading">{COMMON_TEXTS.loadingVideo}</p>
      ) : null}
    </div>
  );
}
