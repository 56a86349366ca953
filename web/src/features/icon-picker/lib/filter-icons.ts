/**
 * Spec section 5: the icon search filters by lowercase substring. Icon names are lower-case with
 * underscores (thumb_up), so the search is lower-cased and spaces typed between words match them.
 */
export function filterIconNames(names: readonly string[], search: string): readonly string[] {
  const needle = search.trim().toLowerCase().replace(/\s+/g, '_');
  return needle ? names.filter((name) => name.includes(needle)) : names;
}
