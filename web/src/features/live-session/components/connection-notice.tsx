import { ERROR_CODES } from '@uis/proto/browser';
import type { LiveState } from '@uis/proto/live';
import { Link } from 'react-router-dom';
import { COMMON_TEXTS } from '../../../i18n/en/common';

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
        <p>You are no longer in this session: {accessEnded}</p>
        <Link className="button secondary" to={homePath}>
          Back to your sessions
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
            <p>Your sign-in has ended: {problem.message} Sign in again to rejoin the session.</p>
            <button type="button" className="button" onClick={onSignInAgain}>
              Sign in again
            </button>
          </>
        ) : (
          <p>The live session is not connected: {problem.message}</p>
        )}
      </div>
    );
  }
  // Always in the page, so screen readers hear when its text changes.
  return (
    <div className="live-notice-status" role="status">
      {status === 'reconnecting' ? (
        <p className="live-notice">Reconnecting…</p>
      ) : status === 'connecting' ? (
        <p className="live-notice quiet">{COMMON_TEXTS.connecting}</p>
      ) : null}
    </div>
  );
}
