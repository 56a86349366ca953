import type { Group } from '@uis/proto';
import { IconButton } from '../../../components/ui/icon-button';
import { useInlineEdit } from '../../../components/ui/use-inline-edit';
import { DASHBOARD_TEXTS } from '../../../i18n/en/dashboard';

interface GroupRowProps {
  group: Group;
  /** The title to show: the group's, or a rename on its way to the server. */
  title: string;
  selected: boolean;
  deleting: boolean;
  onSelect: () => void;
  onRename: (title: string) => void;
  onDelete: () => void;
}

/** A group in the left bar: its title (selects it, or edits inline), an edit icon and a delete icon. */
export function GroupRow({ group, title, selected, deleting, onSelect, onRename, onDelete }: GroupRowProps) {
  const edit = useInlineEdit(title, onRename, 'title');
  const errorId = `group-title-error-${group.group_id}`;
  return (
    <li ref={edit.containerRef} className={`group-row${selected ? ' selected' : ''}`}>
      {edit.editing ? (
        <div className="group-row-edit">
          <input
            className="text-input group-row-input"
            aria-label={DASHBOARD_TEXTS.groupTitle}
            {...edit.inputProps}
            aria-invalid={edit.error ? true : undefined}
            aria-describedby={edit.error ? errorId : undefined}
          />
          {edit.error && (
            <p id={errorId} className="field-error" role="alert">
              {edit.error}
            </p>
          )}
        </div>
      ) : (
        <button
          type="button"
          className="group-row-select"
          aria-current={selected ? 'true' : undefined}
          onClick={onSelect}
          title={title}
        >
          {title}
        </button>
      )}
      <span className="group-row-actions">
        <IconButton
          icon={edit.editing ? 'check' : 'edit'}
          label={edit.editing ? DASHBOARD_TEXTS.doneEditing : DASHBOARD_TEXTS.editGroupTitle}
          onClick={edit.editing ? edit.finish : edit.start}
        />
        <IconButton
          icon="delete"
          label={DASHBOARD_TEXTS.deleteGroup}
          onClick={() => {
            edit.cancel();
            onDelete();
          }}
          disabled={deleting}
        />
      </span>
    </li>
  );
}
