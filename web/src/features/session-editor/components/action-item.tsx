import { TRANSPARENT, UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import type { Action } from '@uis/proto';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useApiMutation } from '../../../api/queries';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { useDebouncedEdits } from '../hooks/use-debounced-edits';
import { ActionColorPicker } from './action-color-picker';
import { SaveStatus } from './save-status';
import { EDITOR_TEXTS, iconText } from '../../../i18n/en/editor';

// The picker, its icon list and the other styles' fonts load only when a picker is opened.
const IconPicker = lazy(() =>
  import('../../icon-picker/components/icon-picker').then((module) => ({ default: module.IconPicker })),
);

type ActionFields = Pick<Action, 'name' | 'color' | 'icon' | 'type'>;

/** One action of the actions row: icon (with the picker), name, colour and delete; edits debounced. */
export function ActionItem({ action }: { action: Action }) {
  const server = useMemo<ActionFields>(
    () => ({ name: action.name, color: action.color, icon: action.icon, type: action.type }),
    [action],
  );
  const { mutateAsync } = useApiMutation('editAction', {
    errorText: UI_TEXTS.errorEditingAction,
    invalidates: ['getActions'],
  });
  const removeAction = useApiMutation('deleteAction', {
    errorText: UI_TEXTS.errorDeletingAction,
    invalidates: ['getActions'],
  });
  const send = useCallback(
    (patch: Partial<ActionFields>) => mutateAsync({ actionId: action.action_id, ...patch }),
    [mutateAsync, action.action_id],
  );
  const { draft, edit, errorOf, lastStatus } = useDebouncedEdits(server, send);
  const [picking, setPicking] = useState(false);

  // An empty name is never sent; a refused save is said by the action's save status.
  const nameError = draft.name.trim() === '' ? VALIDATION_TEXTS.empty : null;

  return (
    <li className="editor-action">
      <div className="editor-action-main">
        <div className="editor-action-icon-anchor">
          <button
            type="button"
            className={`editor-action-icon${draft.color === TRANSPARENT ? ' transparent' : ''}`}
            aria-label={iconText(draft.icon, draft.type)}
            aria-expanded={picking}
            onClick={() => setPicking(true)}
          >
            <Icon
              name={draft.icon}
              iconStyle={draft.type}
              color={draft.color === TRANSPARENT ? undefined : draft.color}
            />
          </button>
        </div>
        <input
          className="text-input editor-action-name"
          aria-label={EDITOR_TEXTS.actionName}
          aria-invalid={nameError || errorOf('name') ? true : undefined}
          value={draft.name}
          onChange={(event) => {
            const name = event.target.value;
            edit({ name }, { localOnly: name.trim() === '' ? ['name'] : [] });
          }}
        />
        <ActionColorPicker value={draft.color} onChange={(color) => edit({ color })} />
        <IconButton
          icon="delete"
          label={EDITOR_TEXTS.deleteAction}
          disabled={removeAction.isPending}
          onClick={() => removeAction.mutate({ actionId: action.action_id })}
        />
      </div>
      {nameError ? (
        <p className="field-error" role="alert">
          {nameError}
        </p>
      ) : null}
      <p className="editor-item-status">
        <SaveStatus status={lastStatus} />
      </p>
      {picking ? (
        <Suspense fallback={null}>
          <IconPicker
            icon={draft.icon}
            iconStyle={draft.type}
            onPick={(patch) => edit(patch)}
            onClose={() => setPicking(false)}
          />
        </Suspense>
      ) : null}
    </li>
  );
}
