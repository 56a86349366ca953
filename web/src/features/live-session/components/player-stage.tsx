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
import { hadGesture, readSoundChoice, type SoundChoice } from '../lib/sound-choice';
import { useExposure } from './exposure-scope';
import { SoundGate } from './sound-gate';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS, SOUND_GATE_TEXTS } from '../../../i18n/en/live-session';

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
 * A video or stream session's player. A participant first passes the sound gate (once per tab: the
 * choice survives a reload); the researcher has none.
 */
export function PlayerStage(props: PlayerStageProps) {
  const { role, sessionId, kind } = props;
  const [choice, setChoice] = useState<SoundChoice | null>(() =>
    role === 'participant' ? readSoundChoice(sessionId) : 'sound',
  );
  if (choice === null) {
    return (
      <div className={`live-player live-player-${kind} live-player-gated`}>
        <SoundGate sessionId={sessionId} onPassed={setChoice} />
      </div>
    );
  }
  return <LivePlayer {...props} soundChoice={choice} />;
}

/**
 * The player with what the live session adds around it: the playback sync (the researcher leads,
 * participants follow), the researcher's timed prompts, and for participants their own mute button,
 * the click capture (while the researcher allows it) with its marker, the 'Click to join playback'
 * overlay when the browser blocks playback, 'Resume with sound' when it allows it only muted, and
 * what their exposure log and the researcher's monitor need (sound, stalls, position).
 */
function LivePlayer({
  sessionId,
  kind,
  make,
  role,
  connection,
  allowClicks,
  userName,
  prompts,
  soundChoice,
}: PlayerStageProps & { soundChoice: SoundChoice }) {
  const [aspect, setAspect] = useState<number | null>(null);
  const [muted, setMuted] = useState(true);
  const [markers, setMarkers] = useState<Marker[]>([]);
  const markerTimers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const participant = role === 'participant';
  // Passed with sound, but no click on this page yet (a reload): browsers then autoplay only muted,
  // so it starts muted and one click ('Resume with sound') turns the sound on.
  const [soundPending, setSoundPending] = useState(
    () => participant && soundChoice === 'sound' && !hadGesture(),
  );
  const startMuted = useRef(soundChoice === 'muted' || soundPending);
  const exposure = useExposure();
  const onReady = useCallback(
    (ready: PlayerAdapter, video: HTMLVideoElement | null) => {
      // Participants start as their sound gate says (muted before it, as spec section 6 has it).
      if (participant) ready.setMuted(startMuted.current);
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
  // A participant's position and sound, for the researcher's monitor (drift is measured from it).
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
          sound: { muted: player.muted() },
        })
      : null,
  );

  // Refused with sound after all (a browser that cannot tell about gestures): on muted, one click away.
  useEffect(() => {
    if (!participant || !blocked || !player || player.muted()) return;
    player.setMuted(true);
    setMuted(true);
    setSoundPending(true);
    resume();
  }, [participant, blocked, player, resume]);

  useExposureOfPlayer(participant ? exposure : null, player, video, muted);

  const unmute = () => {
    if (!player) return;
    player.setMuted(false);
    setMuted(false);
    setSoundPending(false);
  };

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
            if (muted) return unmute();
            player.setMuted(true);
            setMuted(true);
          }}
        />
      ) : null}
      {participant && player && soundPending && !blocked ? (
        <button type="button" className="live-resume-sound" onClick={unmute}>
          <Icon name="volume_up" size={32} />
          <span>{SOUND_GATE_TEXTS.resumeWithSound}</span>
          <span className="live-resume-sound-hint">{SOUND_GATE_TEXTS.resumeHint}</span>
        </button>
      ) : null}
      {blocked ? (
        <button
          type="button"
          className="live-join-playback"
          onClick={() => {
            // The click is the gesture sound waits for too.
            if (soundPending) unmute();
            resume();
          }}
        >
          <Icon name="play_circle" size={48} />
          {soundPending ? SOUND_GATE_TEXTS.resumeWithSound : LIVE_SESSION_TEXTS.joinPlayback}
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

/**
 * The player's part of a participant's exposure log: sound off and on (its state when it starts,
 * then each change), and the video stalling to buffer ('waiting') and playing again. Every event
 * carries where the player is. An embedded player without a <video> (YouTube) reports no stalls.
 */
function useExposureOfPlayer(
  exposure: ReturnType<typeof useExposure>,
  player: PlayerAdapter | null,
  video: HTMLVideoElement | null,
  muted: boolean,
): void {
  useEffect(() => {
    if (!exposure || !player) return;
    exposure.setVideoTime(() => player.currentTime());
    return () => exposure.setVideoTime(null);
  }, [exposure, player]);

  const recorded = useRef<{ to: unknown; muted: boolean } | null>(null);
  useEffect(() => {
    if (!exposure || !player) return;
    const last = recorded.current;
    if (last?.to === exposure && last.muted === muted) return;
    recorded.current = { to: exposure, muted };
    exposure.record(muted ? 'mute' : 'unmute');
  }, [exposure, player, muted]);

  useEffect(() => {
    if (!exposure || !video) return;
    let stalled = false;
    const onWaiting = () => {
      if (stalled) return;
      stalled = true;
      exposure.record('stall');
    };
    const onPlaying = () => {
      if (!stalled) return;
      stalled = false;
      exposure.record('stall_end');
    };
    video.addEventListener('waiting', onWaiting);
    video.addEventListener('playing', onPlaying);
    return () => {
      video.removeEventListener('waiting', onWaiting);
      video.removeEventListener('playing', onPlaying);
    };
  }, [exposure, video]);
}
