import { SCREEN_TEXTS, STATUS } from '@uis/proto/browser';
import type { LiveConnection } from '@uis/live-client';
import { useState } from 'react';
import { notify } from '../../../components/ui/toast';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

/**
 * The researcher's 'Allow Participant Clicks' checkbox: it asks the server, which tells the whole
 * room (this page too, through the connection's state). Shows the asked value until then.
 */
export function ClicksToggle({
  connection,
  sessionId,
  allowClicks,
  disabled,
}: {
  connection: LiveConnection | null;
  sessionId: string;
  allowClicks: boolean;
  disabled: boolean;
}) {
  const [asked, setAsked] = useState<boolean | null>(null);
  const toggle = async (allow: boolean) => {
    if (!connection) return;
    setAsked(allow);
    try {
      const answer = await connection.ask('toggleParticipantClicks', { sessionId, allowClicks: allow });
      if (answer.status !== STATUS.SUCCESS)
        notify.error(LIVE_SESSION_TEXTS.clicksNotChanged, answer.res.message);
    } catch {
      notify.error(LIVE_SESSION_TEXTS.clicksNotChanged, COMMON_TEXTS.serverTimeout);
    } finally {
      setAsked(null);
    }
  };
  return (
    <label className="live-clicks-toggle">
      <input
        type="checkbox"
        checked={asked ?? allowClicks}
        disabled={disabled || asked !== null}
        onChange={(event) => void toggle(event.target.checked)}
      />
      {SCREEN_TEXTS.allowParticipantClicks}
    </label>
  );
}
