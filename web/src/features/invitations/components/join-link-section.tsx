import { JOIN_PATH, SCOPE_MAX_EMAILS } from '@uis/proto/browser';
import type { JoinLink } from '@uis/proto';
import { useId, useState, type FormEvent } from 'react';
import { EDITOR_COUNTS_REFRESH_MS, useApiMutation, useApiQuery } from '../../../api/queries';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Icon } from '../../../components/ui/icon';
import { notify } from '../../../components/ui/toast';
import { joinCapOf } from '../lib/join-cap';
import { PROLIFIC_QUERY } from '../lib/panel-ids';
import { copiedText, joinedText, notCopiedText, PARTICIPATION_TEXTS } from '../../../i18n/en/participation';

const serverMessage = (error: unknown) => (error instanceof Error ? error.message : undefined);

/** The link a researcher shares: this app's join page of the token (routes.ts PATHS.join). */
export const joinLinkUrl = (token: string): string =>
  `${window.location.origin}${JOIN_PATH}/${encodeURIComponent(token)}`;

/** Copies to the clipboard, or says to copy by hand where the browser refuses (no permission, http). */
async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(copiedText(what));
  } catch {
    notify.error(notCopiedText(what), PARTICIPATION_TEXTS.copyByHand);
  }
}

/** A read-only address with its Copy button. */
function CopyField({ label, copyLabel, value }: { label: string; copyLabel: string; value: string }) {
  const id = useId();
  return (
    <div className="join-link-field">
      <label className="editor-field-label" htmlFor={id}>
        {label}
      </label>
      <div className="join-link-copy">
        <input
          id={id}
          className="text-input join-link-url"
          readOnly
          value={value}
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className="button secondary"
          aria-label={copyLabel}
          onClick={() => void copy(value, label)}
        >
          <Icon name="content_copy" size={18} /> {PARTICIPATION_TEXTS.copy}
        </button>
      </div>
    </div>
  );
}

type Confirming = 'revoke' | 'replace' | null;

/** The live link: its address, who joined, a new link in its place, revocation, the panels' hint. */
function ActiveJoinLink({
  link,
  busy,
  onReplace,
  onRevoke,
}: {
  link: JoinLink;
  busy: boolean;
  onReplace: () => Promise<unknown>;
  onRevoke: () => Promise<unknown>;
}) {
  const [confirming, setConfirming] = useState<Confirming>(null);
  const url = joinLinkUrl(link.token);
  const act = (run: () => Promise<unknown>) => () => void run().finally(() => setConfirming(null));
  return (
    <>
      <CopyField
        label={PARTICIPATION_TEXTS.linkToShare}
        copyLabel={PARTICIPATION_TEXTS.copyJoinLink}
        value={url}
      />
      <p className="join-link-status" role="status">
        <Icon name="group" size={18} /> {joinedText(link.joined, link.maxParticipants)}
      </p>
      <div className="join-link-actions">
        <button
          type="button"
          className="button secondary"
          disabled={busy}
          onClick={() => setConfirming('replace')}
        >
          <Icon name="autorenew" size={18} /> {PARTICIPATION_TEXTS.newLink}
        </button>
        <button
          type="button"
          className="button secondary join-link-revoke"
          disabled={busy}
          onClick={() => setConfirming('revoke')}
        >
          <Icon name="link_off" size={18} /> {PARTICIPATION_TEXTS.revoke}
        </button>
      </div>
      <details className="join-link-hint">
        <summary>{PARTICIPATION_TEXTS.panelQuestion}</summary>
        <p>{PARTICIPATION_TEXTS.panelHint}</p>
        <CopyField
          label={PARTICIPATION_TEXTS.linkForProlific}
          copyLabel={PARTICIPATION_TEXTS.copyProlificLink}
          value={`${url}${PROLIFIC_QUERY}`}
        />
      </details>
      {confirming === 'revoke' ? (
        <ConfirmDialog
          title={PARTICIPATION_TEXTS.revokeHeading}
          message={PARTICIPATION_TEXTS.revokeWarning}
          confirmLabel={PARTICIPATION_TEXTS.revokeLink}
          busy={busy}
          onConfirm={act(onRevoke)}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
      {confirming === 'replace' ? (
        <ConfirmDialog
          title={PARTICIPATION_TEXTS.replaceHeading}
          message={PARTICIPATION_TEXTS.replaceWarning}
          confirmLabel={PARTICIPATION_TEXTS.makeNewLink}
          busy={busy}
          onConfirm={act(onReplace)}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </>
  );
}

/** No link yet (or revoked): make one, with an optional cap on the people it may add. */
function NewJoinLink({ busy, onCreate }: { busy: boolean; onCreate: (cap: number | null) => void }) {
  const [capText, setCapText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = joinCapOf(capText);
    if ('error' in read) return setError(read.error);
    setError(null);
    onCreate(read.cap);
  };
  return (
    <form className="join-link-new" onSubmit={submit} noValidate>
      <p className="editor-empty">{PARTICIPATION_TEXTS.linkExplained}</p>
      <div className="join-link-new-row">
        <div className="join-link-cap">
          <label className="editor-field-label" htmlFor={`${id}-cap`}>
            {PARTICIPATION_TEXTS.cap}
          </label>
          <input
            id={`${id}-cap`}
            className="text-input"
            type="number"
            inputMode="numeric"
            min={1}
            max={SCOPE_MAX_EMAILS}
            step={1}
            placeholder={PARTICIPATION_TEXTS.noCap}
            value={capText}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setCapText(event.target.value)}
          />
        </div>
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          <Icon name="add_link" size={18} /> {PARTICIPATION_TEXTS.makeLink}
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/**
 * The session's join link: off, a way to make one; on, the address to share, how many
 * joined, a new link in its place (the old stops working) and Revoke.
 */
export function JoinLinkSection({ sessionId }: { sessionId: string }) {
  const query = useApiQuery(
    'getJoinLink',
    { sessionId },
    { errorText: PARTICIPATION_TEXTS.joinLinkNotLoaded, refreshEveryMs: EDITOR_COUNTS_REFRESH_MS },
  );
  const invalidates = ['getJoinLink', 'getSessionPeople'] as const;
  const create = useApiMutation('createJoinLink', { invalidates });
  const revoke = useApiMutation('revokeJoinLink', { invalidates });
  const busy = create.isPending || revoke.isPending;
  const failed = (text: string) => (error: unknown) => notify.error(text, serverMessage(error));
  const link = query.data?.joinLink ?? null;
  const id = useId();

  const make = (cap: number | null) =>
    create.mutateAsync({ sessionId, maxParticipants: cap }).catch(failed(PARTICIPATION_TEXTS.linkNotMade));

  return (
    <section className="editor-section join-link" aria-labelledby={`${id}-heading`}>
      <div className="editor-section-header">
        <h3 id={`${id}-heading`}>{PARTICIPATION_TEXTS.joinLink}</h3>
      </div>
      {query.data === undefined ? (
        <p className="editor-empty">
          {query.isError ? PARTICIPATION_TEXTS.joinLinkNotLoaded : PARTICIPATION_TEXTS.loading}
        </p>
      ) : link ? (
        <ActiveJoinLink
          link={link}
          busy={busy}
          onReplace={() => make(link.maxParticipants)}
          onRevoke={() =>
            revoke
              .mutateAsync({ sessionId })
              .then(() => notify.success(PARTICIPATION_TEXTS.linkRevoked))
              .catch(failed(PARTICIPATION_TEXTS.linkNotRevoked))
          }
        />
      ) : (
        <NewJoinLink busy={busy} onCreate={(cap) => void make(cap)} />
      )}
    </section>
  );
}
