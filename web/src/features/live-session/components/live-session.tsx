import { RESEARCHER, UI_TEXTS, reactionText } from '@uis/proto/browser';
import type { Action } from '@uis/proto';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { useApiQuery } from '../../../api/queries';
import { homePathOf, useAuth, useUser } from '../../../signed-in/auth-context';
import { notify } from '../../../components/ui/toast';
import { useLayout } from '../../../layout/use-layout';
import type { PlaybackRole } from '../../../playback/sync/playback-sync';
import { PATHS, editSessionPath } from '../../../routes';
import { useLiveConnection, useLiveState } from '../hooks/use-live-connection';
import { announceClicks } from '../lib/live-toasts';
import { ChatColumn, sendProblemText } from './chat-column';
import { ClicksToggle } from './clicks-toggle';
import { ConnectionNotice } from './connection-notice';
import { EndSessionButton } from './end-session-button';
import { ExitLink } from './exit-link';
import { ExposureScope } from './exposure-scope';
import { MonitorPanel } from './monitor-panel';
import { ReactionsRow } from './reactions-row';
import { SessionClosed } from './session-closed';
import { SessionEnded } from './session-ended';
import { SessionWaiting } from './session-waiting';
import { SessionStage } from './session-stage';
import { COMMON_TEXTS, LIVE_SESSION_TITLE } from '../../../i18n/en/common';
import '../live-session.css';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

/**
 * The live session (spec section 2): top bar with the title and Exit, the video area by type, the
 * reaction icons, the researcher's 'Allow Participant Clicks', and the chat. One LiveConnection
 * carries it all; the page reads its state and the playback modules work on it.
 */
export function LiveSession({ sessionId }: { sessionId: string }) {
  const user = useUser();
  const auth = useAuth();
  const navigate = useNavigate();
  const layout = useLayout();
  const info = useApiQuery('getSessionInfo', { sessionId }, { errorText: UI_TEXTS.errorGettingSessionInfo });
  const actions = useApiQuery('getActions', { sessionId }, { errorText: UI_TEXTS.errorGettingActions });
  const researcher = user.type === RESEARCHER;
  // Prompts are the owner's only: a researcher who is refused them (403) is a participant here.
  const prompts = useApiQuery('getPrompts', { sessionId }, { enabled: researcher });
  const promptsRefused = prompts.error instanceof ApiError && prompts.error.httpStatus === 403;
  const role: PlaybackRole | null = !researcher
    ? 'participant'
    : prompts.isPending
      ? null
      : promptsRefused
        ? 'participant'
        : 'owner';
  const connection = useLiveConnection(sessionId);
  const state = useLiveState(connection);
  const connected = state.status === 'connected';

  useEffect(() => {
    if (prompts.isError && !promptsRefused) notify.error(UI_TEXTS.errorFetchingPrompts);
  }, [prompts.isError, promptsRefused]);

  useEffect(() => {
    if (state.listFailed) notify.error(UI_TEXTS.errorFetchingChatMessages);
  }, [state.listFailed]);

  // Participants hear when the researcher turns clicks on or off.
  const clicksBefore = useRef(false);
  useEffect(() => {
    if (clicksBefore.current === state.allowClicks) return;
    clicksBefore.current = state.allowClicks;
    if (role === 'participant') announceClicks(state.allowClicks);
  }, [state.allowClicks, role]);

  const send = useCallback(
    async (text: string, actionId?: string) => {
      if (!connection) return { kind: 'unanswered' as const };
      return connection.send(text, actionId);
    },
    [connection],
  );
  const loadOlder = useCallback(async () => connection?.loadOlder(), [connection]);
  const react = (action: Action) => {
    // The action's id goes with the text: the data tell a reaction from a typed message.
    void send(reactionText(user.name, action.name), action.action_id).then((outcome) => {
      const problem = sendProblemText(outcome);
      if (problem) notify.error(LIVE_CONTROL_TEXTS.reactionNotSent, problem);
    });
  };

  const title = info.data?.sessionInfo.title;
  const owner = role === 'owner';
  /** The page around a notice that takes the place of the room (ended, closed, not started). */
  const alone = (notice: ReactNode) => (
    <div className={`live-session${layout.liveSmall ? ' small' : ''}`}>
      <header className="live-top">
        <h1 className="live-title" dir="auto" title={title}>
          {title ?? LIVE_SESSION_TITLE}
        </h1>
      </header>
      {notice}
    </div>
  );
  const homePath = owner ? editSessionPath(sessionId) : homePathOf(user);
  if (state.ended) {
    // A participant's own URL (their panel ids filled in) comes with the session's info.
    const completionUrl = owner
      ? state.ended.completionUrl
      : (info.data?.sessionInfo.completionUrl ?? state.ended.completionUrl);
    return alone(<SessionEnded completionUrl={completionUrl} participant={!owner} homePath={homePath} />);
  }
  // Found closed on arrival (or on a resync): nothing of the room is shown, its researcher may reopen it.
  if (state.sessionState === 'ended' && role) {
    return alone(
      <SessionClosed homePath={homePath} reopen={owner && connection ? () => connection.reopen() : null} />,
    );
  }
  // A participant waits, connected, until the researcher starts it; the page then moves on.
  if (state.sessionState === 'not_started' && role === 'participant') return alone(<SessionWaiting />);
  return (
    <div className={`live-session${layout.liveSmall ? ' small' : ''}`}>
      <header className="live-top">
        <h1 className="live-title" dir="auto" title={title}>
          {title ?? LIVE_SESSION_TITLE}
        </h1>
        {owner ? <EndSessionButton connection={connection} disabled={!connected} /> : null}
        <ExitLink fallback={owner ? editSessionPath(sessionId) : PATHS.sessions} />
      </header>
      <ConnectionNotice
        state={state}
        homePath={homePathOf(user)}
        onSignInAgain={() => {
          auth.forget();
          void navigate(PATHS.login);
        }}
      />
      <ExposureScope connection={connection} sessionId={sessionId} enabled={role === 'participant'}>
        <main className="live-body">
          <section className="live-stage" aria-label={LIVE_SESSION_TEXTS.video}>
            {info.data && role ? (
              <SessionStage
                sessionId={sessionId}
                info={info.data.sessionInfo}
                role={role}
                connection={connection}
                allowClicks={state.allowClicks}
                user={user}
                prompts={owner ? prompts.data?.prompts : undefined}
              />
            ) : (
              <p className="live-player-loading">
                {info.isError ? COMMON_TEXTS.sessionNotLoaded : COMMON_TEXTS.loadingSession}
              </p>
            )}
            <div className="live-controls">
              <ReactionsRow actions={actions.data?.actions ?? []} disabled={!connected} onReact={react} />
              {owner ? (
                <ClicksToggle
                  connection={connection}
                  sessionId={sessionId}
                  allowClicks={state.allowClicks}
                  disabled={!connected}
                />
              ) : null}
            </div>
            {owner ? <MonitorPanel connection={connection} sessionId={sessionId} /> : null}
          </section>
          <ChatColumn
            messages={state.messages}
            hasOlder={state.hasOlder}
            listFailed={state.listFailed}
            loading={!connected && state.messages.length === 0 && !state.listFailed}
            canSend={connected}
            onSend={send}
            onLoadOlder={loadOlder}
          />
        </main>
      </ExposureScope>
    </div>
  );
}
