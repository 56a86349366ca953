import { describe, expect, it } from 'vitest';
import { loadIconNames } from '../hooks/use-icon-names';
import { REACTION_ICONS, reactionIcons } from './reaction-icons';

describe('reaction icons', () => {
  it('are all Material icons, each once, thumbs and hearts first', async () => {
    const names = await loadIconNames();
    expect(reactionIcons(names)).toEqual(REACTION_ICONS);
    expect(new Set(REACTION_ICONS).size).toBe(REACTION_ICONS.length);
    expect(REACTION_ICONS.slice(0, 2)).toEqual(['thumb_up', 'thumb_down']);
  });

  it('leaves out what an icon set lacks', () => {
    expect(reactionIcons(['favorite', 'thumb_up', 'alarm'])).toEqual(['thumb_up', 'favorite']);
  });
});
