import { ERROR_CODES } from '@uis/proto/browser';
import type { LiveState } from '@uis/live-client';
import { Link } from 'react-router-dom';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import {
  accessEndedText,
  LIVE_SESSION_TEXTS,
  notConnectedText,
  signInEndedText,
} from '../../../i18n/en/live-session';

/**
 * How the live connection is doing, in words: a polite status while it connects or reconnects, an
 * alert with a way on when it ended (access taken away, sign-in ended, refused).
 */
export function ConnectionNotice({
  state,
  homePath,
  onSignInAgain,
}: {
  state: LiveState;
  homePath: string;
  onSignInAgain: () => void;
}) {
  const { status, problem, accessEnded } = state;
  if (accessEnded !== null) {
    return (
      <div className="live-notice error" role="alert">
        <p>{accessEndedText(accessEnded)}</p>
        <Link className="button secondary" to={homePath}>
          {COMMON_TEXTS.backToSessions}
        </Link>
      </div>
    );
  }
  if (status === 'ended' && problem) {
    const signedOut = problem.code === ERROR_CODES.REVOKED || problem.code === ERROR_CODES.UNAUTHENTICATED;
    return (
      <div className="live-notice error" role="alert">
        {signedOut ? (
          <>
            <p>{signInEndedText(problem.message)}</p>
            <button type="button" className="button" onClick={onSignInAgain}>
              {LIVE_SESSION_TEXTS.signInAgain}
            </button>
          </>
        ) : (
          <p>{notConnectedText(problem.message)}</p>
        )}
      </div>
    );
  }
  // Always in the page, so screen readers hear when its text changes.
  return (
    <div className="live-notice-status" role="status">
      {status === 'reconnecting' ? (
        <p className="live-notice">{LIVE_SESSION_TEXTS.reconnecting}</p>
      ) : status === 'connecting' ? (
        <p className="live-notice quiet">{COMMON_TEXTS.connecting}</p>
      ) : null}
    </div>
  );
}
