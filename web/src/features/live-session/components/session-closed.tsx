import { useState } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../components/ui/toast';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

/**
 * Someone opens a session that has ended (a late joiner, a reload after the end). A participant is
 * told so, and not sent to the completion URL: that would credit a session they did not attend. Its
 * researcher may reopen it (`reopen`: the live connection's reopen, which joins again).
 */
export function SessionClosed({
  homePath,
  reopen,
}: {
  homePath: string;
  /** The researcher's: reopens the session; null for a participant. */
  reopen: (() => Promise<{ status: string; res: unknown }>) | null;
}) {
  const [sending, setSending] = useState(false);
  const onReopen = async () => {
    if (!reopen) return;
    setSending(true);
    try {
      const answer = await reopen();
      if (answer.status !== 'SUCCESS') {
        notify.error(LIVE_SESSION_TEXTS.notReopened, (answer.res as { message?: string }).message);
      }
    } catch {
      notify.error(LIVE_SESSION_TEXTS.notReopened, LIVE_CONTROL_TEXTS.noAnswer);
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="live-notice live-ended" role="alert">
      <h2>{LIVE_SESSION_TEXTS.ended}</h2>
      <p>{reopen ? LIVE_SESSION_TEXTS.closedToOwner : LIVE_SESSION_TEXTS.closedToLateParticipant}</p>
      {reopen ? (
        <button type="button" className="button" disabled={sending} onClick={() => void onReopen()}>
          {LIVE_SESSION_TEXTS.reopenSession}
        </button>
      ) : null}
      <Link className="button secondary" to={homePath}>
        {reopen ? LIVE_SESSION_TEXTS.backToEditor : COMMON_TEXTS.backToSessions}
      </Link>
    </div>
  );
}
