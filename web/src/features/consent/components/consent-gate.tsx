import { ERROR_CODES } from '@uis/proto/browser';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { homePathOf, useUser } from '../../../auth/auth-context';
import '../consent.css';

export const CONSENT_GATE_TEXTS = {
  heading: 'Before you join',
  intro: 'The researcher asks you to read and agree to the following before the live session opens.',
  agree: 'I agree',
  notNow: 'Not now',
  changed: 'The researcher has just changed this text. Please read it again.',
  failed: 'Your agreement could not be saved. Please try again.',
} as const;

/**
 * The live session opens only for a participant who has agreed to the session's current consent
 * text (issue 14): until then this shows the text and an 'I agree' button instead of `children`.
 * The server refuses them too (realtime and records answer CONSENT_REQUIRED); this is where they
 * agree. A failure to read their status leaves the live screen to show what went wrong.
 */
export function ConsentGate({ sessionId, children }: { sessionId: string; children: ReactNode }) {
  const user = useUser();
  const status = useApiQuery('getMyConsent', { sessionId });
  const info = useApiQuery('getSessionInfo', { sessionId });
  const accept = useApiMutation('acceptConsent', { invalidates: ['getMyConsent'] });
  const [problem, setProblem] = useState<string | null>(null);

  if (status.isPending) return <p className="consent-loading">Loading the session…</p>;
  const consent = status.data?.consent;
  if (!status.data?.required || !consent) return <>{children}</>;

  const agree = () => {
    setProblem(null);
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
  return (
    <main className="consent-gate">
      <section className="consent-card" aria-labelledby="consent-heading">
        <p className="consent-session" dir="auto">
          {title ?? 'Live session'}
        </p>
        <h1 id="consent-heading">{CONSENT_GATE_TEXTS.heading}</h1>
        <p className="consent-intro">{CONSENT_GATE_TEXTS.intro}</p>
        <div className="consent-text" dir="auto" tabIndex={0} role="document" aria-label="Consent text">
          {consent.text}
        </div>
        <p className="consent-version">
          Version {consent.version} · SHA-256{' '}
          <code title={consent.sha256}>{consent.sha256.slice(0, 12)}…</code>
        </p>
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
            onClick={agree}
            disabled={accept.isPending || status.isFetching}
            aria-busy={accept.isPending}
          >
            {CONSENT_GATE_TEXTS.agree}
          </button>
        </div>
      </section>
    </main>
  );
}
