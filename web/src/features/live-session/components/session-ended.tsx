import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { LIVE_SESSION_TEXTS, nextStepText } from '../../../i18n/en/live-session';
import { COMMON_TEXTS } from '../../../i18n/en/common';

/** Seconds a participant sees the ended message before the completion URL opens. */
export const COMPLETION_REDIRECT_S = 5;

/**
 * What everyone sees once the researcher ended the session. A participant with a completion URL is
 * sent there after a short visible countdown rather than at once: they read why the session
 * closed (not a crash), and the link lets them go now. `go` is the navigation (tests replace it).
 */
export function SessionEnded({
  completionUrl,
  participant,
  homePath,
  go = (url: string) => window.location.assign(url),
}: {
  completionUrl: string | null;
  participant: boolean;
  homePath: string;
  go?: (url: string) => void;
}) {
  const redirect = participant && completionUrl ? completionUrl : null;
  const [left, setLeft] = useState(COMPLETION_REDIRECT_S);
  useEffect(() => {
    if (!redirect) return;
    if (left <= 0) {
      go(redirect);
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [redirect, left, go]);

  return (
    <div className="live-notice live-ended" role="alert">
      <h2>{LIVE_SESSION_TEXTS.ended}</h2>
      {participant ? <p>{LIVE_SESSION_TEXTS.endedByResearcher}</p> : <p>{LIVE_SESSION_TEXTS.endedByYou}</p>}
      {redirect ? (
        <p>
          {nextStepText(left)}{' '}
          <a className="button" href={redirect}>
            {LIVE_SESSION_TEXTS.continueNow}
          </a>
        </p>
      ) : null}
      <Link className="button secondary" to={homePath}>
        {COMMON_TEXTS.backToSessions}
      </Link>
    </div>
  );
}
