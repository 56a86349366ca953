import type { Group } from '@uis/proto';
import { SCREEN_TEXTS, UI_TEXTS } from '@uis/proto/browser';
import { useApiMutation } from '../../../api/queries';
import { useUser } from '../../../signed-in/auth-context';
import { Icon } from '../../../components/ui/icon';
import { useLayout } from '../../../layout/use-layout';
import { GroupItem } from './group-item';
import { DASHBOARD_TEXTS } from '../../../i18n/en/dashboard';

interface GroupsBarProps {
  groups: readonly Group[] | undefined;
  selectedId: string | null;
  onSelect: (groupId: string) => void;
  /** On mobile or under width 500 the bar folds away behind an arrow toggle. */
  collapsible: boolean;
  open: boolean;
  onToggle: () => void;
}

/** The dashboard's left bar: the researcher's groups and 'Create Group'. */
export function GroupsBar({ groups, selectedId, onSelect, collapsible, open, onToggle }: GroupsBarProps) {
  const user = useUser();
  const { createGroupShort } = useLayout();
  const create = useApiMutation('createGroup', {
    errorText: UI_TEXTS.internalError,
    invalidates: ['getGroups'],
  });
  const folded = collapsible && !open;

  const toggle = collapsible && (
    <button
      type="button"
      className="icon-button groups-bar-toggle"
      aria-label={open ? DASHBOARD_TEXTS.hideGroups : DASHBOARD_TEXTS.showGroups}
      aria-expanded={open}
      aria-controls="groups-bar-content"
      onClick={onToggle}
    >
      <Icon name={open ? 'chevron_left' : 'chevron_right'} />
    </button>
  );

  return (
    <aside
      className={`groups-bar${collapsible ? ' collapsible' : ''}${folded ? ' folded' : ''}`}
      aria-label={DASHBOARD_TEXTS.groups}
    >
      {folded ? (
        toggle
      ) : (
        <div id="groups-bar-content" className="groups-bar-content">
          <div className="groups-bar-head">
            {toggle}
            <h2 className="groups-bar-heading">{DASHBOARD_TEXTS.groups}</h2>
            <button
              type="button"
              className="button groups-bar-create"
              aria-label={SCREEN_TEXTS.createGroup}
              disabled={create.isPending}
              onClick={() =>
                create.mutate({ email: user.email }, { onSuccess: ({ group }) => onSelect(group.group_id) })
              }
            >
              {createGroupShort ? SCREEN_TEXTS.createGroupShort : SCREEN_TEXTS.createGroup}
            </button>
          </div>
          {groups && groups.length === 0 && <p className="groups-bar-empty">{DASHBOARD_TEXTS.noGroups}</p>}
          {/* Busy until the groups are loaded: an empty list then means none yet, not "still loading". */}
          <ul className="groups-bar-list" aria-busy={groups === undefined}>
            {groups?.map((group) => (
              <GroupItem
                key={group.group_id}
                group={group}
                selected={group.group_id === selectedId}
                onSelect={() => onSelect(group.group_id)}
              />
            ))}
          </ul>
        </div>
      )}
    </aside>
  );
}
