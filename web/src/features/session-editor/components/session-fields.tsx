import { SESSION_TYPES, UI_TEXTS, VALIDATION_TEXTS, type SessionType } from '@uis/proto/browser';
import type { SessionInfo } from '@uis/proto';
import { useCallback, useId } from 'react';
import { useApiMutation } from '../../../api/queries';
import { useDebouncedEdits } from '../hooks/use-debounced-edits';
import { EditorField } from './editor-field';
import { ScopeSelect } from './scope-select';
import { VideoSourceField } from './video-source-field';
import { EDITOR_TEXTS } from '../../../i18n/en/editor';

/**
 * Title, Scope, Type, Source and Track of a session (spec section 2), and ours, its Completion URL. Edits go out debounced by
 * DEBOUNCE_MS, only the changed fields; a type change is saved at once, and the server clears the
 * source (and removes the video when leaving video), so session and video info are refetched.
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
  const { draft, edit, flush, errorOf } = useDebouncedEdits(info, send);
  const id = useId();

  const changeType = (type: SessionType) => {
    if (type === draft.type) return;
    // The server clears the source itself; a source still queued for the old type must not go with it.
    edit({ type, source: '' }, { localOnly: ['source'] });
    void flush();
  };

  const titleError = draft.title.trim() === '' ? VALIDATION_TEXTS.empty : errorOf('title');

  return (
    <div className="session-fields">
      <EditorField label={EDITOR_TEXTS.title} htmlFor={`${id}-title`} error={titleError} className="span-2">
        <input
          id={`${id}-title`}
          className="text-input"
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
        error={errorOf('scope')}
        className="span-2"
      >
        <ScopeSelect inputId={`${id}-scope`} value={draft.scope} onChange={(scope) => edit({ scope })} />
      </EditorField>
      <EditorField label={EDITOR_TEXTS.type} htmlFor={`${id}-type`} error={errorOf('type')}>
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
      </EditorField>
      {draft.type === 'stream' ? (
        <EditorField label={EDITOR_TEXTS.source} htmlFor={`${id}-source`} error={errorOf('source')}>
          <input
            id={`${id}-source`}
            className="text-input"
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
        error={errorOf('track')}
        className="span-2"
      >
        <input
          id={`${id}-track`}
          className="text-input"
          value={draft.track}
          onChange={(event) => edit({ track: event.target.value })}
        />
      </EditorField>
      <EditorField
        label={EDITOR_TEXTS.completionUrl}
        htmlFor={`${id}-completion`}
        error={errorOf('completionUrl')}
        className="span-2"
      >
        {/* Where participants are sent when the researcher ends the live session; empty: nowhere. */}
        <input
          id={`${id}-completion`}
          className="text-input"
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
