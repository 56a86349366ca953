import { STATUS } from '@uis/proto/browser';
import { MONITOR_REFRESH_MS } from '../../../config/ui-constants';
import type { CallLinkState, MonitorSnapshot, MonitoredParticipant } from '@uis/proto';
import type { LiveConnection } from '@uis/live-client';
import { useEffect, useState } from 'react';
import { Icon } from '../../../components/ui/icon';
import { videoTimeText } from '../../records/lib/record-format';
import { driftLevel, driftText, durationText } from '../lib/monitor-format';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import {
  CALL_LINK_TEXTS,
  connectedCountText,
  connectedForText,
  leftAgoText,
  LIVE_SESSION_TEXTS,
  reconnectsText,
} from '../../../i18n/en/live-session';

/**
 * The researcher's live monitor (beside the video, hidden from participants): who is connected,
 * for how long and after how many reconnects, where each participant's player is and how far from
 * the researcher's, who plays the video without sound, whose tab is hidden, who is muted in the
 * call, and who has left. Asked of the server every
 * MONITOR_REFRESH_MS while connected; presence is kept across replicas, so it is the same
 * whichever replica answers.
 */
export function MonitorPanel({
  connection,
  sessionId,
}: {
  connection: LiveConnection | null;
  sessionId: string;
}) {
  const snapshot = useMonitor(connection, sessionId);
  const participants = snapshot?.participants ?? [];
  const connected = participants.filter((p) => p.connected).length;
  return (
    <details className="live-monitor" open>
      <summary>
        <Icon name="groups" /> {LIVE_SESSION_TEXTS.participants}{' '}
        <span className="live-monitor-count">
          {snapshot ? connectedCountText(connected, participants.length - connected) : '…'}
        </span>
      </summary>
      {snapshot && participants.length === 0 ? (
        <p className="live-monitor-empty">{COMMON_TEXTS.nobodyJoined}</p>
      ) : (
        <ul className="live-monitor-list" aria-live="off">
          {participants.map((participant) => (
            <MonitorRow key={participant.userId} participant={participant} now={snapshot!.serverTime} />
          ))}
        </ul>
      )}
    </details>
  );
}

function MonitorRow({ participant: p, now }: { participant: MonitoredParticipant; now: number }) {
  const state = p.connected ? 'connected' : 'left';
  return (
    <li className={`live-monitor-row ${state}`} aria-label={`${p.name}, ${state}`}>
      <span className={`live-monitor-dot ${state}`} aria-hidden="true" />
      <span className="live-monitor-who">
        <span className="live-monitor-name" dir="auto">
          {p.name}
        </span>
        <span className="live-monitor-email">{p.email}</span>
      </span>
      <span className="live-monitor-facts">
        {p.connected && p.since !== null ? (
          <span title={LIVE_SESSION_TEXTS.connectedFor}>{connectedForText(durationText(now - p.since))}</span>
        ) : p.leftAt !== null ? (
          <span>{leftAgoText(durationText(now - p.leftAt))}</span>
        ) : null}
        {p.reconnects > 0 ? (
          <span title={LIVE_SESSION_TEXTS.joinedAgain}>{reconnectsText(p.reconnects)}</span>
        ) : null}
        {p.connected && p.playback ? (
          <span className="live-monitor-position" title={LIVE_SESSION_TEXTS.videoPosition}>
            {/* Icons, not ⏸ and ▶: the text font has no pause glyph. */}
            <Icon name={p.playback.paused ? 'pause' : 'play_arrow'} />
            <span className="visually-hidden">
              {p.playback.paused ? LIVE_SESSION_TEXTS.pausedAt : LIVE_SESSION_TEXTS.playingAt}{' '}
            </span>
            {videoTimeText(p.playback.currentTime)}
          </span>
        ) : null}
        {p.connected && p.playback?.driftMs != null ? (
          <span
            className={`live-monitor-drift ${driftLevel(p.playback.driftMs)}`}
            title={LIVE_SESSION_TEXTS.drift}
          >
            {driftText(p.playback.driftMs)}
          </span>
        ) : null}
        {p.connected && p.sound ? (
          <span
            className={`live-monitor-sound ${p.sound.muted ? 'off' : 'on'}`}
            title={LIVE_SESSION_TEXTS.soundTitle}
          >
            <Icon name={p.sound.muted ? 'volume_off' : 'volume_up'} />
            {p.sound.muted ? (
              LIVE_SESSION_TEXTS.soundOff
            ) : (
              <span className="visually-hidden">{LIVE_SESSION_TEXTS.soundOn}</span>
            )}
          </span>
        ) : null}
        {p.connected && p.visible === false ? (
          <span className="live-monitor-tab" title={LIVE_SESSION_TEXTS.tabHiddenTitle}>
            <Icon name="visibility_off" />
            {LIVE_SESSION_TEXTS.tabHidden}
          </span>
        ) : null}
        {p.connected && p.call ? <CallFacts call={p.call} /> : null}
      </span>
    </li>
  );
}

/** Older clients report `connected` only: not yet connected then reads as still connecting. */
const linkOf = (call: NonNullable<MonitoredParticipant['call']>): CallLinkState =>
  call.state ?? (call.connected ? 'connected' : 'connecting');

const CALL_LINK_WORDS: Record<CallLinkState, { title: string; text: string | null }> = CALL_LINK_TEXTS;

/** Whether a participant is in the call, and muted: who cannot get through shows at a glance. */
function CallFacts({ call }: { call: NonNullable<MonitoredParticipant['call']> }) {
  const link = linkOf(call);
  const words = CALL_LINK_WORDS[link];
  return (
    <span className={`live-monitor-call ${link}`} title={words.title}>
      <Icon name={call.muted ? 'mic_off' : 'mic'} />
      <span className="visually-hidden">
        {call.muted ? LIVE_SESSION_TEXTS.muted : LIVE_SESSION_TEXTS.microphoneOn}
      </span>
      {words.text}
    </span>
  );
}

/** The server's snapshot, asked again every MONITOR_REFRESH_MS while the connection is up. */
function useMonitor(connection: LiveConnection | null, sessionId: string): MonitorSnapshot | null {
  const [snapshot, setSnapshot] = useState<MonitorSnapshot | null>(null);
  useEffect(() => {
    if (!connection) return;
    let stopped = false;
    const ask = async () => {
      if (connection.state.status !== 'connected') return;
      const answer = await connection.ask('monitor', { sessionId }).catch(() => null);
      if (!stopped && answer?.status === STATUS.SUCCESS) setSnapshot(answer.res);
    };
    void ask();
    const timer = setInterval(() => void ask(), MONITOR_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [connection, sessionId]);
  return snapshot;
}
