import { ERROR_CODES } from '@uis/proto/browser';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { homePathOf, useUser } from '../../../signed-in/auth-context';
import {
  COMMON_TEXTS,
  CONSENT_GATE_TEXTS,
  consentVersionText,
  LIVE_SESSION_TITLE,
} from '../../../i18n/en/common';
import '../consent.css';

/**
 * The live session opens only for a participant who has agreed to the session's current consent
 * text, and, for a session anyone may open from a link (scope Everyone), who confirmed
 * they take part: until then this shows the text (or the question) and a button instead of
 * `children`, and nothing of theirs reaches the researcher. The server refuses them too (every route
 * and event of the session's data answers CONSENT_REQUIRED); this is where they agree. A failure to
 * read their status leaves the live screen to show what went wrong.
 */
export function ConsentGate({ sessionId, children }: { sessionId: string; children: ReactNode }) {
  const user = useUser();
  const status = useApiQuery('getMyConsent', { sessionId });
  const info = useApiQuery('getSessionInfo', { sessionId });
  // Before agreeing, the session's info leaves out what to watch (the server's one consent rule).
  const accept = useApiMutation('acceptConsent', { invalidates: ['getMyConsent', 'getSessionInfo'] });
  const enter = useApiMutation('enterSession', { invalidates: ['getMyConsent'] });
  const [problem, setProblem] = useState<string | null>(null);
  const mustConfirm = status.data?.mustConfirm;

  // Someone the scope names takes part by opening the page: recorded once it is open.
  const entered = useRef(false);
  useEffect(() => {
    if (mustConfirm !== false || entered.current) return;
    entered.current = true;
    enter.mutate({ sessionId }, { onError: () => (entered.current = false) });
  }, [mustConfirm, sessionId, enter]);

  if (status.isPending) return <p className="consent-loading">{COMMON_TEXTS.loadingSession}</p>;
  const consent = status.data?.consent;
  const required = Boolean(status.data?.required && consent);
  if (!mustConfirm && !required) return <>{children}</>;

  const proceed = async () => {
    setProblem(null);
    if (mustConfirm) {
      try {
        await enter.mutateAsync({ sessionId });
        entered.current = true;
      } catch {
        setProblem(CONSENT_GATE_TEXTS.joinFailed);
        return;
      }
    }
    if (!required || !consent) return;
    accept.mutate(
      { sessionId, sha256: consent.sha256 },
      {
        onError: (error) => {
          const changed = error instanceof ApiError && error.code === ERROR_CODES.CONFLICT;
          setProblem(changed ? CONSENT_GATE_TEXTS.changed : CONSENT_GATE_TEXTS.failed);
        },
      },
    );
  };
  const title = info.data?.sessionInfo.title;
  const busy = accept.isPending || enter.isPending;
  return (
    <main className="consent-gate">
      <section className="consent-card" aria-labelledby="consent-heading">
        <p className="consent-session" dir="auto">
          {title ?? LIVE_SESSION_TITLE}
        </p>
        <h1 id="consent-heading">
          {required ? CONSENT_GATE_TEXTS.heading : CONSENT_GATE_TEXTS.confirmHeading}
        </h1>
        {mustConfirm ? <p className="consent-intro">{CONSENT_GATE_TEXTS.confirmBody}</p> : null}
        {required && consent ? (
          <>
            <p className="consent-intro">{CONSENT_GATE_TEXTS.intro}</p>
            <div
              className="consent-text"
              dir="auto"
              tabIndex={0}
              role="document"
              aria-label={COMMON_TEXTS.consentText}
            >
              {consent.text}
            </div>
            <p className="consent-version">
              {consentVersionText(consent.version)}{' '}
              <code title={consent.sha256}>{consent.sha256.slice(0, 12)}…</code>
            </p>
          </>
        ) : null}
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="consent-actions">
          <Link className="button secondary" to={homePathOf(user)}>
            {CONSENT_GATE_TEXTS.notNow}
          </Link>
          <button
            type="button"
            className="button"
            onClick={() => void proceed()}
            disabled={busy || status.isFetching}
            aria-busy={busy}
          >
            {!required
              ? CONSENT_GATE_TEXTS.join
              : mustConfirm
                ? CONSENT_GATE_TEXTS.agreeAndJoin
                : CONSENT_GATE_TEXTS.agree}
          </button>
        </div>
      </section>
    </main>
  );
}
