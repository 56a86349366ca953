import type { Group } from '@uis/proto';
import { UI_TEXTS } from '@uis/proto/browser';
import { useState } from 'react';
import { useApiMutation } from '../../../api/queries';
import { DELETION_TEXTS, deleteGroupHeading } from '../../../i18n/en/dashboard';
import { ConfirmDeletion } from './confirm-deletion';
import { GroupRow } from './group-row';

interface GroupItemProps {
  group: Group;
  selected: boolean;
  onSelect: () => void;
}

/**
 * A group row wired to the server: renames and deletes, each refetching the lists they change. A
 * deletion asks first, saying how many sessions, messages, clicks and videos go with the group.
 */
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
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <GroupRow
        group={group}
        title={title}
        selected={selected}
        deleting={remove.isPending}
        onSelect={onSelect}
        onRename={(newTitle) => rename.mutate({ groupId: group.group_id, title: newTitle })}
        onDelete={() => setConfirming(true)}
      />
      {confirming ? (
        <ConfirmDeletion
          target={{ kind: 'group', groupId: group.group_id }}
          heading={deleteGroupHeading(title)}
          confirmLabel={DELETION_TEXTS.deleteGroup}
          deleting={remove.isPending}
          onConfirm={() =>
            remove.mutate({ groupId: group.group_id }, { onSettled: () => setConfirming(false) })
          }
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}
