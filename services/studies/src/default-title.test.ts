import { nextDefaultTitle } from './default-title';

describe('nextDefaultTitle', () => {
  it('is the default itself when no title uses it', () => {
    expect(nextDefaultTitle('New group', [])).toBe('New group');
    expect(nextDefaultTitle('New group', ['Pilot', 'New group of mine', 'New group x'])).toBe('New group');
  });

  it('numbers after the highest default taken', () => {
    expect(nextDefaultTitle('New group', ['New group'])).toBe('New group 2');
    expect(nextDefaultTitle('New group', ['New group', 'New group 2'])).toBe('New group 3');
    expect(nextDefaultTitle('New group', ['New group 7', 'Pilot'])).toBe('New group 8');
    // A renamed first group leaves a gap; numbering still goes up, so no two new ones collide.
    expect(nextDefaultTitle('New session', ['New session 2', 'New session 3'])).toBe('New session 4');
  });

  it('ignores numbers that are not plain counters', () => {
    expect(nextDefaultTitle('New group', ['New group 02', 'New group 0', 'New group 1234567890'])).toBe(
      'New group',
    );
  });

  it('treats the base literally, not as a pattern', () => {
    expect(nextDefaultTitle('a.b', ['axb'])).toBe('a.b');
    expect(nextDefaultTitle('a.b', ['a.b'])).toBe('a.b 2');
  });
});
