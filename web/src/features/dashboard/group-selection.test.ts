import type { Group } from '@uis/proto';
import { describe, expect, it } from 'vitest';
import { selectedGroupOf } from './group-selection';

const group = (n: number): Group => ({ group_id: `00000000-0000-4000-8000-00000000000${n}`, title: `G${n}` });
const [g1, g2, g3] = [group(1), group(2), group(3)];

describe('selectedGroupOf', () => {
  it('is empty while the groups load and when there are none', () => {
    expect(selectedGroupOf(undefined, null)).toBeNull();
    expect(selectedGroupOf([], null)).toBeNull();
    expect(selectedGroupOf([], g1.group_id)).toBeNull();
  });

  it('defaults to the first group', () => {
    expect(selectedGroupOf([g1, g2, g3], null)).toBe(g1);
  });

  it('keeps the chosen group while it exists, wherever it moved in the list', () => {
    expect(selectedGroupOf([g1, g2, g3], g2.group_id)).toBe(g2);
    expect(selectedGroupOf([g3, g2], g2.group_id)).toBe(g2);
  });

  it('resets to the first group when the chosen one disappears', () => {
    expect(selectedGroupOf([g1, g3], g2.group_id)).toBe(g1);
    expect(selectedGroupOf([g3], g1.group_id)).toBe(g3);
  });

  it('follows the list: the renamed group is the one returned', () => {
    const renamed = { ...g2, title: 'Pilot' };
    expect(selectedGroupOf([g1, renamed], g2.group_id)).toBe(renamed);
  });
});
