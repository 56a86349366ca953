import { RESEARCHER } from '@uis/proto/browser';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { homePathOf, useUser } from '../../../signed-in/auth-context';
import { Icon } from '../../../components/ui/icon';
import { liveSessionPath } from '../../../routes';
import { joinFailureOf, joinSession, type JoinFailure } from '../lib/join-session';
import { panelIdsOf } from '../lib/panel-ids';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import '../participation.css';
import { JOIN_SESSION_PAGE_TEXTS } from '../../../i18n/en/join-session';
import { JOIN_SESSION_TEXTS } from '../../../i18n/en/join-session';

/**
 * A join link followed by a signed-in person (signed out, the guard sent them through sign-in and
 * back): once they confirm (a link anyone may send must not tell its author who followed it), joins
 * the session with the link's token and the recruitment panel's ids its query carries, then opens
 * the live session in place of this page. A refusal says why, in the server's words.
 */
export function JoinSession({
  token,
  query,
  confirmed = false,
}: {
  token: string;
  query: string;
  /** They confirmed already (the landing page's Start): join at once. */
  confirmed?: boolean;
}) {
  const user = useUser();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<JoinFailure | null>(null);
  // 0 until the person confirms; a new attempt (Try again) runs the effect again.
  const [attempt, setAttempt] = useState(confirmed ? 1 : 0);

  useEffect(() => {
    if (attempt === 0) return;
    // Only the effect run still mounted acts (StrictMode runs effects twice; the call is shared).
    let active = true;
    joinSession(token, panelIdsOf(query)).then(
      ({ sessionId }) => {
        if (active) void navigate(liveSessionPath(sessionId), { replace: true });
      },
      (error: unknown) => {
        if (active) setFailure(joinFailureOf(error));
      },
    );
    return () => {
      active = false;
    };
  }, [token, query, attempt, navigate]);

  const home = (
    <Link className="button secondary" to={homePathOf(user)}>
      {user.type === RESEARCHER ? JOIN_SESSION_PAGE_TEXTS.backToDashboard : COMMON_TEXTS.backToSessions}
    </Link>
  );
  if (attempt === 0) {
    return (
      <main className="join-session">
        <section className="join-session-card" aria-labelledby="join-session-heading">
          <Icon name="group_add" size={40} className="join-session-icon" />
          <h1 id="join-session-heading">{JOIN_SESSION_TEXTS.heading}</h1>
          <p>{JOIN_SESSION_TEXTS.body}</p>
          <div className="join-session-actions">
            <button type="button" className="button" onClick={() => setAttempt(1)}>
              {JOIN_SESSION_TEXTS.join}
            </button>
            <Link className="button secondary" to={homePathOf(user)}>
              {JOIN_SESSION_TEXTS.notNow}
            </Link>
          </div>
        </section>
      </main>
    );
  }
  if (!failure) {
    return (
      <main className="join-session" aria-busy="true">
        <span className="join-session-spinner" aria-hidden="true" />
        <p role="status">{JOIN_SESSION_PAGE_TEXTS.joining}</p>
      </main>
    );
  }
  return (
    <main className="join-session">
      <div className="join-session-card" role="alert">
        <Icon name="link_off" size={40} className="join-session-icon" />
        <h1>{JOIN_SESSION_PAGE_TEXTS.notJoined}</h1>
        <p>{failure.message}</p>
        <div className="join-session-actions">
          {failure.retryable ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setFailure(null);
                setAttempt((count) => count + 1);
              }}
            >
              {JOIN_SESSION_PAGE_TEXTS.tryAgain}
            </button>
          ) : null}
          {home}
        </div>
      </div>
    </main>
  );
}
