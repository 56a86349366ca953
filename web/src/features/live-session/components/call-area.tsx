import { appConfig } from '../../../config/app-config';
import { STATUS, UI_TEXTS } from '@uis/proto/browser';
import type { LiveConnection } from '@uis/live-client';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { usePresenceReport } from '../hooks/use-presence-report';
import { call as callApi, renewAccessToken } from '../../../api/client';
import { useUser } from '../../../signed-in/auth-context';
import { tokens } from '../../../signed-in/tokens';
import { IconButton } from '../../../components/ui/icon-button';
import { notify } from '../../../components/ui/toast';
import type { CallRole, CallState } from '../../../call/call-state';
import { CALL_TEXTS, RESEARCHER_LABEL, mediaProblemText } from '../../../i18n/en/call';
import { LiveCall } from '../../../call/live-call';
import { deviceCheckPath } from '../../device-check/lib/device-check-path';
import { CallTile } from './call-tile';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import './call-area.css';
import {
  CALL_STATUS_TEXTS,
  LIVE_CONTROL_TEXTS,
  LIVE_SESSION_TEXTS,
  participantsInCallText,
} from '../../../i18n/en/live-session';

export interface CallAreaProps {
  sessionId: string;
  /** The session's live connection (its joinVideoChat and syncVideoChat events carry the peer ids). */
  connection: LiveConnection;
  /** The researcher owns the call (camera, microphone); participants call in. */
  role: 'owner' | 'participant';
  /** The signed-in user's id: their peer id is proto's peerIdFor(sessionId, userId, instance). */
  userId: string;
}

/** Renewed this long before it expires: a registration with the call server must not meet an expired cookie. */
const RENEW_BEFORE_MS = 30_000;

/** How often, and how far apart, a caller the server's roster does not show yet is looked up again. */
const VOUCH_TRIES = 5;
const VOUCH_RETRY_MS = 1000;

/**
 * The researcher's answer to "who is calling": the participant's name in the server's live roster
 * of the session (the monitor's), or null when they are not connected to it. Their live connection
 * joins before they call, but the roster may lag it across replicas: a few tries, a second apart.
 */
function serverVouch(connection: LiveConnection, sessionId: string) {
  return async (userId: string): Promise<string | null> => {
    for (let attempt = 0; attempt < VOUCH_TRIES; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, VOUCH_RETRY_MS));
      const answer = await connection.ask('monitor', { sessionId }).catch(() => null);
      if (answer?.status !== STATUS.SUCCESS) continue;
      const known = answer.res.participants.find(
        (participant) => participant.connected && participant.userId.toLowerCase() === userId.toLowerCase(),
      );
      if (known) return known.name;
    }
    return null;
  };
}

/**
 * The call server reads the accessToken cookie on registration (it cannot be given a header): when
 * the signed-in marker says it expires soon, a fresh one first.
 */
async function freshAccessCookie(): Promise<void> {
  if (tokens.expiresWithin(RENEW_BEFORE_MS)) await renewAccessToken();
}

const NOT_STARTED: CallState = {
  signalling: 'starting',
  local: { stream: null, hasAudio: false, hasVideo: false, muted: true, problem: null, acquiring: true },
  remotes: [],
  dialing: false,
  researcherAbsent: false,
  link: null,
  problem: null,
  ended: null,
};

function useCallState(call: LiveCall | null): CallState {
  const subscribe = useCallback(
    (onChange: () => void) => call?.subscribe(onChange) ?? (() => undefined),
    [call],
  );
  return useSyncExternalStore(subscribe, () => call?.state ?? NOT_STARTED);
}

/** One line on how the call is going. */
function statusOf(state: CallState, role: CallRole): string {
  if (state.ended) return state.ended;
  if (state.problem) return state.problem.text;
  switch (state.signalling) {
    case 'starting':
      return state.local.acquiring ? CALL_STATUS_TEXTS.startingMedia : LIVE_SESSION_TEXTS.connectingToCall;
    case 'connecting':
      return LIVE_SESSION_TEXTS.connectingToCall;
    case 'reconnecting':
      return CALL_STATUS_TEXTS.reconnecting;
    case 'failed':
      return CALL_STATUS_TEXTS.failed;
    case 'closed':
      return CALL_TEXTS.ended;
    case 'open':
      break;
  }
  if (role === 'participant') {
    if (state.link === 'connected') return CALL_STATUS_TEXTS.inCallWithResearcher;
    if (state.dialing) return LIVE_SESSION_TEXTS.callingResearcher;
    if (state.remotes.length > 0) return CALL_STATUS_TEXTS.connectingToResearcher;
    return CALL_STATUS_TEXTS.waitingForResearcher;
  }
  const count = state.remotes.length;
  if (count === 0) return CALL_STATUS_TEXTS.waitingForParticipants;
  return participantsInCallText(count);
}

/**
 * A chat session's video area: the researcher's camera call (spec sections 1 and 4). The
 * researcher sees their own camera and a tile for every participant who joined; a participant
 * sees the researcher, and themselves small. Participants start muted; nobody hears themselves.
 */
export function CallArea({ sessionId, connection, role, userId }: CallAreaProps) {
  const { name } = useUser();
  const nameRef = useRef(name);
  nameRef.current = name;
  const [call, setCall] = useState<LiveCall | null>(null);

  useEffect(() => {
    const live = new LiveCall({
      sessionId,
      userId,
      role,
      name: nameRef.current,
      signalling: connection,
      // PeerJS on the page's own origin unless /app-config.json names signal's.
      location: appConfig().signalUrl ? new URL(appConfig().signalUrl) : undefined,
      settings: () => callApi('getCallSettings', { sessionId }),
      vouch: serverVouch(connection, sessionId),
      beforeRegister: freshAccessCookie,
      onMediaProblem: (problem, missing) =>
        notify.error(UI_TEXTS.failedToGetLocalStream, mediaProblemText(problem, missing)),
    });
    setCall(live);
    void live.start();
    return () => live.close();
  }, [sessionId, userId, role, connection]);

  const state = useCallState(call);
  const { local, remotes } = state;
  // A participant's call, for the researcher's monitor: how it connects to the researcher, and muted.
  usePresenceReport(
    connection,
    sessionId,
    role === 'participant' && call
      ? () => ({
          call: {
            connected: state.link === 'connected',
            state: state.link ?? 'connecting',
            muted: local.muted || !local.hasAudio,
          },
        })
      : null,
  );
  const selfNote = local.acquiring
    ? CALL_STATUS_TEXTS.startingCamera
    : local.hasVideo
      ? undefined
      : LIVE_SESSION_TEXTS.cameraOff;

  const controls = call && !state.ended && (
    <div className="call-controls">
      {local.problem && (
        <button
          type="button"
          className="button secondary"
          disabled={local.acquiring}
          onClick={() => void call.retryMedia()}
        >
          {LIVE_SESSION_TEXTS.retryMedia}
        </button>
      )}
      <IconButton
        icon={local.muted || !local.hasAudio ? 'mic_off' : 'mic'}
        label={LIVE_CONTROL_TEXTS.muteMicrophone}
        aria-pressed={local.muted}
        disabled={!local.hasAudio}
        className={`call-mute${local.muted ? ' on' : ''}`}
        onClick={() => call.setMuted(!local.muted)}
      />
    </div>
  );

  const self = <CallTile stream={local.stream} name={LIVE_SESSION_TEXTS.you} self note={selfNote} />;

  return (
    <section
      className={`call-area ${role}`}
      aria-label={LIVE_SESSION_TEXTS.videoCall}
      data-session={sessionId}
    >
      {role === 'participant' ? (
        <div className="call-stage">
          {remotes.length > 0 ? (
            remotes.map((remote) => (
              <CallTile
                key={remote.key}
                stream={remote.stream}
                name={remote.name}
                note={
                  remote.stream && remote.link === 'connected'
                    ? LIVE_SESSION_TEXTS.cameraOff
                    : COMMON_TEXTS.connecting
                }
                className="call-main"
              />
            ))
          ) : (
            <div className="call-tile call-main call-empty" aria-label={RESEARCHER_LABEL} role="figure">
              <span>
                {state.dialing
                  ? LIVE_SESSION_TEXTS.callingResearcher
                  : LIVE_SESSION_TEXTS.researcherNotInCall}
              </span>
            </div>
          )}
          <div className="call-self">{self}</div>
        </div>
      ) : (
        <ul
          className={`call-grid count-${remotes.length < 4 ? remotes.length + 1 : 'many'}`}
          aria-label={LIVE_SESSION_TEXTS.peopleInCall}
        >
          <li>{self}</li>
          {remotes.map((remote) => (
            <li key={remote.key}>
              <CallTile
                stream={remote.stream}
                name={remote.name}
                note={
                  remote.stream && remote.link === 'connected'
                    ? LIVE_SESSION_TEXTS.cameraOff
                    : COMMON_TEXTS.connecting
                }
              />
            </li>
          ))}
        </ul>
      )}
      <div className="call-bar">
        <p className="call-status" role="status">
          {statusOf(state, role)}
        </p>
        {/* The pre-session check (a page of its own: it opens the camera itself). */}
        <a className="call-check-link" href={deviceCheckPath(sessionId)}>
          {COMMON_TEXTS.checkDevices}
        </a>
        {controls}
      </div>
    </section>
  );
}
