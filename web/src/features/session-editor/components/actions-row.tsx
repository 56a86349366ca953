import { UI_TEXTS } from '@uis/proto/browser';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { useIconFonts } from '../../../components/ui/icon-fonts';
import { ActionItem } from './action-item';
import { EditorListSection } from './editor-list-section';
import { EDITOR_TEXTS } from '../../../i18n/en/editor';

/** The actions row (spec section 2): the session's reaction icons and the add-action control. */
export function ActionsRow({ sessionId }: { sessionId: string }) {
  const actions = useApiQuery('getActions', { sessionId }, { errorText: UI_TEXTS.errorGettingActions });
  const addAction = useApiMutation('addAction', {
    errorText: UI_TEXTS.errorAddingAction,
    invalidates: ['getActions'],
  });
  const list = actions.data?.actions ?? [];
  useIconFonts(list.map((action) => action.type));

  return (
    <EditorListSection
      title={EDITOR_TEXTS.actions}
      noun={EDITOR_TEXTS.action}
      onAdd={() => addAction.mutate({ sessionId })}
      adding={addAction.isPending}
      loading={actions.isLoading}
    >
      {list.length > 0 ? (
        <ul className="editor-actions">
          {list.map((action) => (
            <ActionItem key={action.action_id} action={action} />
          ))}
        </ul>
      ) : null}
    </EditorListSection>
  );
}
