import { UI_TEXTS } from '@uis/proto/browser';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../../api/queries';
import { useUser } from '../../../signed-in/auth-context';
import { Icon } from '../../../components/ui/icon';
import { SessionCard } from '../../../components/ui/session-card';
import { useLayout } from '../../../layout/use-layout';
import { liveSessionPath } from '../../../routes';
import { deviceCheckPath } from '../../device-check/lib/device-check-path';
import { AccountBar } from '../../sign-in/components/account-bar';
import { WithdrawButton } from '../../consent/components/withdraw-button';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import './participant-sessions.css';
import { PARTICIPANT_SESSIONS_TEXTS } from '../../../i18n/en/participant-sessions';

/**
 * The participant's home (spec section 2): the sessions they are in, each opening its live
 * session. Delete shows but is disabled: the server marks every row deleteDisabled.
 */
export function ParticipantSessions() {
  const user = useUser();
  const navigate = useNavigate();
  const { cardsCompact } = useLayout();
  const sessions = useApiQuery(
    'getParticipantSessions',
    { email: user.email },
    { errorText: UI_TEXTS.errorGettingSessions },
  );
  const list = sessions.data?.sessions;

  return (
    <div className="participant-sessions">
      <AccountBar />
      <main className="participant-sessions-main">
        <h2 className="participant-sessions-heading">{PARTICIPANT_SESSIONS_TEXTS.heading}</h2>
        {sessions.isPending && <p className="participant-sessions-note">{COMMON_TEXTS.loadingSessions}</p>}
        {list?.length === 0 && (
          <div className="participant-sessions-empty">
            <Icon name="event_busy" size={48} />
            <p>{PARTICIPANT_SESSIONS_TEXTS.noSessions}</p>
            <p className="participant-sessions-note">{PARTICIPANT_SESSIONS_TEXTS.howSessionsAppear}</p>
          </div>
        )}
        {list && list.length > 0 && (
          <ul className={`session-grid${cardsCompact ? ' compact' : ''}`} aria-label={COMMON_TEXTS.sessions}>
            {list.map((session) => (
              <SessionCard
                key={session.session_id}
                type={session.type}
                title={session.title}
                compact={cardsCompact}
                onOpen={() => void navigate(liveSessionPath(session.session_id))}
                deleteDisabled={session.deleteDisabled}
              >
                <WithdrawButton sessionId={session.session_id} title={session.title} />
                {session.type === 'chat' && (
                  <a className="participant-sessions-check" href={deviceCheckPath(session.session_id)}>
                    {COMMON_TEXTS.checkDevices}
                  </a>
                )}
              </SessionCard>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
