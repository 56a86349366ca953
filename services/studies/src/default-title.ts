/**
 * The title of a new group or session when none is given: the default itself, or numbered after
 * the highest one already taken ('New group', 'New group 2', ...), so a dashboard of new items can
 * be told apart. Titles the user typed that merely start with the default do not count.
 */
export function nextDefaultTitle(base: string, existing: readonly string[]): string {
  const numbered = new RegExp(`^${escapeRegExp(base)} ([1-9][0-9]{0,8})$`);
  let highest = 0;
  for (const title of existing) {
    if (title === base) highest = Math.max(highest, 1);
    const n = numbered.exec(title)?.[1];
    if (n !== undefined) highest = Math.max(highest, Number(n));
  }
  return highest === 0 ? base : `${base} ${highest + 1}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
