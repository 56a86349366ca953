import { useCallback, useState } from 'react';

// Per tab: coming back from a session's editor shows the group it belongs to, not the first one.
const STORAGE_KEY = 'uis.dashboard.chosenGroup';

const stored = (): string | null => {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // Storage can be off (privacy settings); the choice then lasts as long as the page.
  }
};

/** The group the researcher last picked; `selectedGroupOf` decides whether it still exists. */
export function useChosenGroup(): [string | null, (groupId: string) => void] {
  const [chosenId, setChosenId] = useState(stored);
  const choose = useCallback((groupId: string) => {
    setChosenId(groupId);
    try {
      sessionStorage.setItem(STORAGE_KEY, groupId);
    } catch {
      // As above: remembered in memory only.
    }
  }, []);
  return [chosenId, choose];
}
