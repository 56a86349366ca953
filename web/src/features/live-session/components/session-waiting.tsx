import { LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

/**
 * A participant on a session that has not started: they wait here, connected, and the page moves
 * on by itself when the researcher starts it (sessionState). A polite status, read once.
 */
export function SessionWaiting() {
  return (
    <div className="live-notice live-ended" role="status">
      <h2>{LIVE_SESSION_TEXTS.notStarted}</h2>
      <p>{LIVE_SESSION_TEXTS.waitingForResearcher}</p>
    </div>
  );
}
