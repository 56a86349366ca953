import type { SessionState } from '@uis/proto';
import { useApiMutation } from '../../../api/queries';
import { EDITOR_TEXTS, SESSION_STATE_TEXTS } from '../../../i18n/en/editor';

/**
 * Where the session is in its life, beside its Start button: not started (participants wait; Open
 * now lets them in without the live page, for a session run unattended), live, or ended (reopened
 * from the live page, where the playback log records it).
 */
export function SessionStateBadge({ sessionId, state }: { sessionId: string; state: SessionState }) {
  const open = useApiMutation('editSessionInfo', {
    errorText: EDITOR_TEXTS.notOpened,
    invalidates: ['getSessionInfo'],
  });
  return (
    <span className={`session-state ${state}`} role="status">
      <span className="session-state-label">{SESSION_STATE_TEXTS[state]}</span>
      {state === 'not_started' ? (
        <button
          type="button"
          className="button secondary"
          disabled={open.isPending}
          title={EDITOR_TEXTS.openNowHint}
          onClick={() => open.mutate({ sessionId, state: 'live' })}
        >
          {EDITOR_TEXTS.openNow}
        </button>
      ) : null}
    </span>
  );
}
