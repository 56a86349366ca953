import { EVERYONE, SESSION_TYPES, UI_TEXTS, VALIDATION_TEXTS, type SessionType } from '@uis/proto/browser';
import type { SessionInfo } from '@uis/proto';
import { useCallback, useId, useState } from 'react';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useDebouncedEdits } from '../hooks/use-debounced-edits';
import { EditorField } from './editor-field';
import { ScopeSelect } from './scope-select';
import { VideoSourceField } from './video-source-field';
import {
  EDITOR_TEXTS,
  FIELD_HELP_TEXTS,
  VIDEO_DELETION_TEXTS,
  changeTypeHeading,
  changeTypeWarningText,
  scopeHelpText,
} from '../../../i18n/en/editor';

/**
 * Title, Scope, Type, Source and Track of a session (spec section 2), and ours, its Completion URL. Edits go out debounced by
 * DEBOUNCE_MS, only the changed fields; a type change is saved at once, and the server clears the
 * source (and removes the video when leaving video, which is asked first when there is one), so
 * session and video info are refetched. Each field says how its last save went.
 */
export function SessionFields({ sessionId, info }: { sessionId: string; info: SessionInfo }) {
  const { mutateAsync } = useApiMutation('editSessionInfo', {
    errorText: UI_TEXTS.errorUpdatingSessionInfo,
    // A saved scope invites its new addresses: the People section lists them.
    invalidates: ['getSessionInfo', 'getVideoInfo', 'getSessions', 'getSessionPeople'],
  });
  const send = useCallback(
    // The state is not edited here (it comes with the info): never sent back.
    (patch: Partial<SessionInfo>) => mutateAsync({ sessionId, ...patch, state: undefined }),
    [mutateAsync, sessionId],
  );
  const { draft, edit, flush, errorOf, statusOf } = useDebouncedEdits(info, send);
  const id = useId();

  // The uploaded video (VideoSourceField asks the same): leaving the video type deletes it.
  const video = useApiQuery('getVideoInfo', { sessionId }, { enabled: draft.type === 'video' });
  const uploaded = draft.type === 'video' ? (video.data?.name ?? null) : null;
  const [typeToConfirm, setTypeToConfirm] = useState<SessionType | null>(null);

  const saveType = (type: SessionType) => {
    // The server clears the source itself; a source still queued for the old type must not go with it.
    edit({ type, source: '' }, { localOnly: ['source'] });
    void flush();
  };
  const changeType = (type: SessionType) => {
    if (type === draft.type) return;
    if (uploaded) setTypeToConfirm(type);
    else saveType(type);
  };

  // A refused save is said beside the field (its status); an empty title is never sent.
  const titleError = draft.title.trim() === '' ? VALIDATION_TEXTS.empty : undefined;

  return (
    <div className="session-fields">
      <EditorField
        label={EDITOR_TEXTS.title}
        htmlFor={`${id}-title`}
        error={titleError}
        status={statusOf('title')}
        className="span-2"
      >
        <input
          id={`${id}-title`}
          className="text-input"
          aria-invalid={titleError || errorOf('title') ? true : undefined}
          value={draft.title}
          onChange={(event) => {
            const title = event.target.value;
            edit({ title }, { localOnly: title.trim() === '' ? ['title'] : [] });
          }}
        />
      </EditorField>
      <EditorField
        label={EDITOR_TEXTS.scope}
        htmlFor={`${id}-scope`}
        status={statusOf('scope')}
        help={scopeHelpText(draft.scope === EVERYONE, draft.scope === EVERYONE ? 0 : draft.scope.length)}
        className="span-2"
      >
        <ScopeSelect
          inputId={`${id}-scope`}
          describedBy={`${id}-scope-help`}
          value={draft.scope}
          onChange={(scope) => edit({ scope })}
        />
      </EditorField>
      <EditorField label={EDITOR_TEXTS.type} htmlFor={`${id}-type`} status={statusOf('type')}>
        <select
          id={`${id}-type`}
          className="text-input"
          value={draft.type}
          onChange={(event) => changeType(event.target.value as SessionType)}
        >
          {SESSION_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        {typeToConfirm && uploaded ? (
          <ConfirmDialog
            title={changeTypeHeading(typeToConfirm)}
            message={changeTypeWarningText(uploaded)}
            confirmLabel={VIDEO_DELETION_TEXTS.changeTypeConfirm}
            onConfirm={() => {
              setTypeToConfirm(null);
              saveType(typeToConfirm);
            }}
            onCancel={() => setTypeToConfirm(null)}
          />
        ) : null}
      </EditorField>
      {draft.type === 'stream' ? (
        <EditorField label={EDITOR_TEXTS.source} htmlFor={`${id}-source`} status={statusOf('source')}>
          <input
            id={`${id}-source`}
            className="text-input"
            aria-invalid={errorOf('source') ? true : undefined}
            type="url"
            inputMode="url"
            placeholder={EDITOR_TEXTS.sourcePlaceholder}
            value={draft.source}
            onChange={(event) => edit({ source: event.target.value })}
          />
        </EditorField>
      ) : null}
      {draft.type === 'video' ? <VideoSourceField sessionId={sessionId} inputId={`${id}-video`} /> : null}
      <EditorField
        label={EDITOR_TEXTS.track}
        htmlFor={`${id}-track`}
        status={statusOf('track')}
        help={FIELD_HELP_TEXTS.track}
        className="span-2"
      >
        <input
          id={`${id}-track`}
          className="text-input"
          aria-describedby={`${id}-track-help`}
          aria-invalid={errorOf('track') ? true : undefined}
          value={draft.track}
          onChange={(event) => edit({ track: event.target.value })}
        />
      </EditorField>
      <EditorField
        label={EDITOR_TEXTS.completionUrl}
        htmlFor={`${id}-completion`}
        status={statusOf('completionUrl')}
        className="span-2"
      >
        {/* Where participants are sent when the researcher ends the live session; empty: nowhere. */}
        <input
          id={`${id}-completion`}
          className="text-input"
          aria-invalid={errorOf('completionUrl') ? true : undefined}
          type="url"
          inputMode="url"
          placeholder={EDITOR_TEXTS.completionUrlPlaceholder}
          value={draft.completionUrl ?? ''}
          onChange={(event) => {
            const text = event.target.value;
            edit({ completionUrl: text.trim() === '' ? null : text });
          }}
        />
      </EditorField>
    </div>
  );
}
