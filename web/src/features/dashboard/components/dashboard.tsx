import { SCREEN_TEXTS, UI_TEXTS } from '@uis/proto/browser';
import { useState } from 'react';
import { useApiQuery } from '../../../api/queries';
import { useUser } from '../../../signed-in/auth-context';
import { Icon } from '../../../components/ui/icon';
import { useLayout } from '../../../layout/use-layout';
import { AccountBar } from '../../sign-in/components/account-bar';
import { selectedGroupOf } from '../group-selection';
import { useChosenGroup } from '../hooks/use-chosen-group';
import { GroupSessions } from './group-sessions';
import { GroupsBar } from './groups-bar';
import './dashboard.css';

/** The researcher's dashboard (spec section 2): groups on the left, the selected group's sessions. */
export function Dashboard() {
  const user = useUser();
  const { leftBarCollapsible } = useLayout();
  const groups = useApiQuery('getGroups', { email: user.email }, { errorText: UI_TEXTS.internalError });
  const [chosenId, setChosenId] = useChosenGroup();
  // A folded bar stays folded until toggled: open, it would cover 'Create a group first'.
  const [barOpen, setBarOpen] = useState(false);
  const list = groups.data?.groups;
  const selected = selectedGroupOf(list, chosenId);
  const open = barOpen;

  const select = (groupId: string) => {
    setChosenId(groupId);
    // On a narrow screen the bar covers the sessions: fold it once a group is picked.
    if (leftBarCollapsible) setBarOpen(false);
  };

  return (
    <div className="dashboard">
      <AccountBar />
      <div className="dashboard-body">
        <GroupsBar
          groups={list}
          selectedId={selected?.group_id ?? null}
          onSelect={select}
          collapsible={leftBarCollapsible}
          open={open}
          onToggle={() => setBarOpen(!open)}
        />
        <main
          className="dashboard-main"
          // A press beside the open overlay bar folds it, as with any drawer.
          onPointerDown={() => leftBarCollapsible && open && setBarOpen(false)}
        >
          {selected ? (
            <GroupSessions group={selected} />
          ) : (
            list && (
              <div className="dashboard-empty">
                <Icon name="folder_open" size={48} />
                <p>{SCREEN_TEXTS.createGroupFirst}</p>
              </div>
            )
          )}
        </main>
      </div>
    </div>
  );
}
