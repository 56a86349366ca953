import type { Group } from '@uis/proto';
import { UI_TEXTS } from '@uis/proto/browser';
import { useApiMutation } from '../../../api/queries';
import { GroupRow } from './group-row';

interface GroupItemProps {
  group: Group;
  selected: boolean;
  onSelect: () => void;
}

/** A group row wired to the server: renames and deletes, each refetching the lists they change. */
export function GroupItem({ group, selected, onSelect }: GroupItemProps) {
  const rename = useApiMutation('editGroup', {
    errorText: UI_TEXTS.internalError,
    invalidates: ['getGroups'],
  });
  const remove = useApiMutation('deleteGroup', {
    errorText: UI_TEXTS.internalError,
    invalidates: ['getGroups', 'getSessions'],
  });
  // Until the refetched list arrives, show the title just sent rather than the old one.
  const title = rename.isPending ? rename.variables.title : group.title;
  return (
    <GroupRow
      group={group}
      title={title}
      selected={selected}
      deleting={remove.isPending}
      onSelect={onSelect}
      onRename={(newTitle) => rename.mutate({ groupId: group.group_id, title: newTitle })}
      onDelete={() => remove.mutate({ groupId: group.group_id })}
    />
  );
}
