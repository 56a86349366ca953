import type { LiveConnection } from '@uis/proto/live';
import { useState } from 'react';
import { notify } from '../../../components/ui/toast';

const NOT_ENDED = 'The session was not ended';

/**
 * The researcher's 'End session' (issue 14): a second click confirms, so a stray click does not send
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
      if (answer.status !== 'SUCCESS') notify.error(NOT_ENDED, answer.res.message);
    } catch {
      notify.error(NOT_ENDED, 'No answer from the server: try again.');
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
        End session
      </button>
    );
  }
  return (
    <div className="live-end-confirm" role="group" aria-label="End the session for everyone?">
      <span>End it for everyone?</span>
      <button
        type="button"
        className="button danger"
        disabled={disabled || sending}
        onClick={() => void end()}
      >
        Yes, end session
      </button>
      <button
        type="button"
        className="button secondary"
        disabled={sending}
        onClick={() => setConfirming(false)}
      >
        Cancel
      </button>
    </div>
  );
}
