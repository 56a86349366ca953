import type { Group } from '@uis/proto';

/**
 * The group whose sessions the dashboard shows (spec section 4): the one the user chose while it
 * exists, else the first; none without groups. Derived on every render, so a chosen group that
 * disappears (deleted here or elsewhere) resets the selection as soon as the list is refetched.
 */
export function selectedGroupOf(groups: readonly Group[] | undefined, chosenId: string | null): Group | null {
  if (!groups?.length) return null;
  return groups.find((group) => group.group_id === chosenId) ?? groups[0] ?? null;
}
