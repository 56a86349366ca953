import type { LiveConnection } from '@uis/live-client';
import { useState } from 'react';
import { notify } from '../../../components/ui/toast';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';
import { COMMON_TEXTS } from '../../../i18n/en/common';

/**
 * The researcher's 'End session': a second click confirms, so a stray click does not send
 * every participant away. Accepted, the connection's state says ended and the page shows it.
 */
export function EndSessionButton({
  connection,
  disabled,
}: {
  connection: LiveConnection | null;
  disabled: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const end = async () => {
    if (!connection) return;
    setSending(true);
    try {
      const answer = await connection.endSession();
      if (answer.status !== 'SUCCESS') notify.error(LIVE_SESSION_TEXTS.notEnded, answer.res.message);
    } catch {
      notify.error(LIVE_SESSION_TEXTS.notEnded, LIVE_CONTROL_TEXTS.noAnswer);
    } finally {
      setSending(false);
      setConfirming(false);
    }
  };
  if (!confirming) {
    return (
      <button
        type="button"
        className="button secondary"
        disabled={disabled}
        onClick={() => setConfirming(true)}
      >
        {LIVE_SESSION_TEXTS.endSession}
      </button>
    );
  }
  return (
    <div className="live-end-confirm" role="group" aria-label={LIVE_SESSION_TEXTS.endForEveryone}>
      <span>{LIVE_SESSION_TEXTS.endItForEveryone}</span>
      <button
        type="button"
        className="button danger"
        disabled={disabled || sending}
        onClick={() => void end()}
      >
        {LIVE_SESSION_TEXTS.yesEndSession}
      </button>
      <button
        type="button"
        className="button secondary"
        disabled={sending}
        onClick={() => setConfirming(false)}
      >
        {COMMON_TEXTS.cancel}
      </button>
    </div>
  );
}
