import type { SessionPerson } from '@uis/proto';
import { useId } from 'react';
import { EDITOR_COUNTS_REFRESH_MS, useApiMutation, useApiQuery } from '../../../api/queries';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { notify } from '../../../components/ui/toast';
import { conflictsText, groupPeople, invitationsText, shortTime } from '../lib/people';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import {
  invitationSentText,
  inviteToText,
  joinedAtText,
  panelIdsOfText,
  PARTICIPATION_TEXTS,
  SOURCE_LABELS,
} from '../../../i18n/en/participation';

const serverMessage = (error: unknown) => (error instanceof Error ? error.message : undefined);

/** One person invited who has not come yet, and their Re-send (one mail per press; the server limits it). */
function InvitedPerson({ sessionId, person }: { sessionId: string; person: SessionPerson }) {
  const resend = useApiMutation('resendInvitation', { invalidates: ['getSessionPeople'] });
  const invite =
    person.invitations > 0 ? PARTICIPATION_TEXTS.resendInvitation : PARTICIPATION_TEXTS.sendInvitation;
  const send = () =>
    resend.mutate(
      { sessionId, email: person.email },
      {
        onSuccess: () => notify.success(invitationSentText(person.email)),
        onError: (error) => notify.error(PARTICIPATION_TEXTS.invitationNotSent, serverMessage(error)),
      },
    );
  return (
    <li className="people-item">
      <div className="people-main">
        <span className="people-email">{person.email}</span>
        <span className="people-meta">{invitationsText(person)}</span>
        {/* The refusal stays beside the person (too many re-sends: when to try again); a toast goes. */}
        {resend.isError ? (
          <span className="field-error" role="alert">
            {serverMessage(resend.error)}
          </span>
        ) : null}
      </div>
      <button
        type="button"
        className="button secondary people-resend"
        aria-label={inviteToText(invite, person.email)}
        disabled={resend.isPending}
        aria-busy={resend.isPending}
        onClick={send}
      >
        <Icon name="forward_to_inbox" size={18} />
        {invite}
      </button>
    </li>
  );
}

/** One person who opened the session: when, how they came, and their recruitment panel's ids. */
function JoinedPerson({ person }: { person: SessionPerson }) {
  const ids = Object.entries(person.panelIds);
  return (
    <li className="people-item">
      <div className="people-main">
        <span className="people-email">{person.email}</span>
        <span className="people-meta">
          {person.joinedAt ? joinedAtText(shortTime(person.joinedAt)) : PARTICIPATION_TEXTS.joined} ·{' '}
          {SOURCE_LABELS[person.source]}
        </span>
        {ids.length > 0 ? (
          <dl className="people-panel-ids" aria-label={panelIdsOfText(person.email)}>
            {ids.map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {person.panelIdConflicts.length > 0 ? (
          <p className="people-conflicts" role="note">
            {conflictsText(person)}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The session's people: those its scope names, invited by mail, who have not come yet
 * (with a Re-send), and those who joined, by invitation or by the join link. Shown for Everyone too:
 * nobody is invited then, but people who join by link are listed.
 */
export function SessionPeople({ sessionId, everyone }: { sessionId: string; everyone: boolean }) {
  const query = useApiQuery(
    'getSessionPeople',
    { sessionId },
    { errorText: PARTICIPATION_TEXTS.peopleNotLoadedError, refreshEveryMs: EDITOR_COUNTS_REFRESH_MS },
  );
  const { invited, joined } = groupPeople(query.data?.people ?? []);
  const nobody = invited.length === 0 && joined.length === 0;
  const id = useId();

  return (
    <section className="editor-section people" aria-labelledby={`${id}-heading`}>
      <div className="editor-section-header">
        <h3 id={`${id}-heading`}>{PARTICIPATION_TEXTS.people}</h3>
        <IconButton
          icon="refresh"
          label={PARTICIPATION_TEXTS.refreshPeople}
          disabled={query.isFetching}
          onClick={() => void query.refetch()}
        />
      </div>
      {query.data === undefined ? (
        <p className="editor-empty">
          {query.isError ? PARTICIPATION_TEXTS.peopleNotLoaded : PARTICIPATION_TEXTS.loadingPeople}
        </p>
      ) : nobody ? (
        <p className="editor-empty">
          {everyone ? PARTICIPATION_TEXTS.nobodyInvitedEveryone : PARTICIPATION_TEXTS.nobodyYet}
        </p>
      ) : (
        <>
          {invited.length > 0 ? (
            <div className="people-group">
              <h4 id={`${id}-invited`}>
                {PARTICIPATION_TEXTS.invited} <span className="people-count">{invited.length}</span>
              </h4>
              <ul className="people-list" aria-labelledby={`${id}-invited`}>
                {invited.map((person) => (
                  <InvitedPerson key={person.email} sessionId={sessionId} person={person} />
                ))}
              </ul>
            </div>
          ) : null}
          <div className="people-group">
            <h4 id={`${id}-joined`}>
              {PARTICIPATION_TEXTS.joined} <span className="people-count">{joined.length}</span>
            </h4>
            {joined.length > 0 ? (
              <ul className="people-list" aria-labelledby={`${id}-joined`}>
                {joined.map((person) => (
                  <JoinedPerson key={person.email} person={person} />
                ))}
              </ul>
            ) : (
              <p className="editor-empty">{COMMON_TEXTS.nobodyJoined}</p>
            )}
          </div>
        </>
      )}
    </section>
  );
}
