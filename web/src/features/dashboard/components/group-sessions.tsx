import type { Group, Session } from '@uis/proto';
import { UI_TEXTS } from '@uis/proto/browser';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { useUser } from '../../../signed-in/auth-context';
import { AddSessionCard, SessionCard } from '../../../components/ui/session-card';
import { useLayout } from '../../../layout/use-layout';
import { editSessionPath } from '../../../routes';
import { StudyExportButton } from '../../study-export/components/study-export-button';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { DELETION_TEXTS, deleteSessionHeading } from '../../../i18n/en/dashboard';
import { ConfirmDeletion } from './confirm-deletion';

/**
 * The selected group's session cards and the add-session card; a card opens the session's editor,
 * its delete icon asks first, saying what the session holds.
 */
export function GroupSessions({ group }: { group: Group }) {
  const user = useUser();
  const navigate = useNavigate();
  const { cardsCompact } = useLayout();
  const sessions = useApiQuery(
    'getSessions',
    { groupId: group.group_id },
    { errorText: UI_TEXTS.errorGettingSessions },
  );
  const create = useApiMutation('createSession', {
    errorText: UI_TEXTS.internalError,
    invalidates: ['getSessions'],
  });
  const remove = useApiMutation('deleteSession', {
    errorText: UI_TEXTS.internalError,
    invalidates: ['getSessions'],
  });
  const [confirming, setConfirming] = useState<Session | null>(null);

  const deleteConfirmed = (session: Session) =>
    remove.mutate({ sessionId: session.session_id }, { onSettled: () => setConfirming(null) });

  return (
    <section className="group-sessions" aria-labelledby="group-sessions-heading">
      <h2 id="group-sessions-heading" className="group-sessions-heading">
        {group.title}
      </h2>
      <StudyExportButton target={{ groupId: group.group_id }} className="group-study-export" />
      {sessions.isPending ? (
        <p className="group-sessions-note">{COMMON_TEXTS.loadingSessions}</p>
      ) : (
        <ul className={`session-grid${cardsCompact ? ' compact' : ''}`} aria-label={COMMON_TEXTS.sessions}>
          {sessions.data?.sessions.map((session) => (
            <SessionCard
              key={session.session_id}
              type={session.type}
              title={session.title}
              compact={cardsCompact}
              onOpen={() => void navigate(editSessionPath(session.session_id))}
              onDelete={() => setConfirming(session)}
              deleteDisabled={remove.isPending && remove.variables.sessionId === session.session_id}
            />
          ))}
          <AddSessionCard
            compact={cardsCompact}
            busy={create.isPending}
            onAdd={() => create.mutate({ groupId: group.group_id, email: user.email })}
          />
        </ul>
      )}
      {confirming ? (
        <ConfirmDeletion
          target={{ kind: 'session', session: confirming }}
          heading={deleteSessionHeading(confirming.title)}
          confirmLabel={DELETION_TEXTS.deleteSession}
          deleting={remove.isPending}
          onConfirm={() => deleteConfirmed(confirming)}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
