import { UI_TEXTS } from '@uis/proto/browser';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { useIconFonts } from '../../../components/ui/icon-fonts';
import { Icon } from '../../../components/ui/icon';
import { ActionItem } from './action-item';

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
    <section className="editor-section" aria-labelledby="editor-actions-heading">
      <div className="editor-section-header">
        <h3 id="editor-actions-heading">Actions</h3>
        <button
          type="button"
          className="button secondary editor-add"
          disabled={addAction.isPending}
          onClick={() => addAction.mutate({ sessionId })}
        >
          <Icon name="add" /> Add action
        </button>
      </div>
      {list.length > 0 ? (
        <ul className="editor-actions">
          {list.map((action) => (
            <ActionItem key={action.action_id} action={action} />
          ))}
        </ul>
      ) : (
        <p className="editor-empty">{actions.isLoading ? 'Loading actions…' : 'No actions yet.'}</p>
      )}
    </section>
  );
}
