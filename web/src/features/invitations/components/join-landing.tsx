import { PATHS } from '../../../routes';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { call } from '../../../api/client';
import { useApiQuery } from '../../../api/queries';
import { Icon } from '../../../components/ui/icon';
import { useAuth } from '../../../signed-in/auth-context';
import { returnPathState } from '../../../signed-in/return-path';
import {
  JOIN_LANDING_TEXTS,
  JOIN_SESSION_PAGE_TEXTS,
  WHAT_HAPPENS_BY_TYPE,
} from '../../../i18n/en/join-session';
import { joinFailureOf, type JoinFailure } from '../lib/join-session';
import { panelIdsOf } from '../lib/panel-ids';
import '../participation.css';

/**
 * A join link opened by someone not signed in: the study's title and what will happen, then Start,
 * which signs them in as the participant the link's panel id names (or a new pseudonymous one)
 * without an e-mail, and joins them (`onEntered`: the page goes on to the join). Invited people with
 * an account may sign in instead. An ended session says so here, before anyone starts.
 */
export function JoinLanding({
  token,
  query,
  onEntered,
}: {
  token: string;
  query: string;
  onEntered: () => void;
}) {
  const auth = useAuth();
  const info = useApiQuery('getJoinLinkInfo', { token });
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<JoinFailure | null>(null);

  const start = async () => {
    setStarting(true);
    setFailure(null);
    try {
      await call('enterThroughLink', { token, panelIds: panelIdsOf(query) });
      onEntered();
      await auth.signIn();
    } catch (error) {
      setFailure(joinFailureOf(error));
      setStarting(false);
    }
  };

  if (info.isPending) {
    return (
      <main className="join-session" aria-busy="true">
        <span className="join-session-spinner" aria-hidden="true" />
        <p role="status">{JOIN_LANDING_TEXTS.loading}</p>
      </main>
    );
  }
  const ended = info.data?.state === 'ended';
  if (!info.data || ended) {
    return (
      <main className="join-session">
        <div className="join-session-card" role="alert">
          <Icon name="link_off" size={40} className="join-session-icon" />
          <h1>{info.data?.title ?? JOIN_SESSION_PAGE_TEXTS.notJoined}</h1>
          <p>{ended ? JOIN_SESSION_PAGE_TEXTS.ended : JOIN_LANDING_TEXTS.noLink}</p>
        </div>
      </main>
    );
  }
  return (
    <main className="join-session">
      <section className="join-session-card join-landing" aria-labelledby="join-landing-heading">
        <Icon name="groups" size={40} className="join-session-icon" />
        <h1 id="join-landing-heading" dir="auto">
          {info.data.title}
        </h1>
        <h2>{JOIN_LANDING_TEXTS.whatHappens}</h2>
        <p>{WHAT_HAPPENS_BY_TYPE[info.data.type]}</p>
        <p>{JOIN_LANDING_TEXTS.before}</p>
        <p className="join-landing-privacy">{JOIN_LANDING_TEXTS.privacy}</p>
        {failure ? (
          <p className="join-landing-problem" role="alert">
            {failure.message}
          </p>
        ) : null}
        <div className="join-session-actions">
          <button type="button" className="button" disabled={starting} onClick={() => void start()}>
            {starting ? JOIN_LANDING_TEXTS.starting : JOIN_LANDING_TEXTS.start}
          </button>
        </div>
        <Link to={PATHS.login} state={returnPathState(window.location.pathname + query)}>
          {JOIN_LANDING_TEXTS.haveAccount}
        </Link>
      </section>
    </main>
  );
}
