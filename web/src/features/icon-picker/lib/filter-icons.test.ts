import { describe, expect, it } from 'vitest';
import { filterIconNames } from './filter-icons';

const names = ['thumb_up', 'thumb_down', 'favorite', 'star', 'star_border', 'thumbs_up_down'];

describe('filterIconNames', () => {
  it('keeps the names holding the lower-cased search anywhere', () => {
    expect(filterIconNames(names, 'THUMB')).toEqual(['thumb_up', 'thumb_down', 'thumbs_up_down']);
    expect(filterIconNames(names, 'or')).toEqual(['favorite', 'star_border']);
    expect(filterIconNames(names, 'up_')).toEqual(['thumbs_up_down']);
  });

  it('matches words typed with spaces against underscores', () => {
    expect(filterIconNames(names, ' Star  Border ')).toEqual(['star_border']);
  });

  it('gives every name for an empty search and none for no match', () => {
    expect(filterIconNames(names, '  ')).toBe(names);
    expect(filterIconNames(names, 'zzz')).toEqual([]);
  });
});
