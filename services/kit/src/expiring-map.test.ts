import { ExpiringMap } from './expiring-map';

describe('ExpiringMap', () => {
  it('answers an entry until its time is up, then reads it as missing', () => {
    const map = new ExpiringMap<string>(1_000);
    map.set('a', 'first', 0);
    expect(map.get('a', 999)).toBe('first');
    expect(map.get('a', 1_000)).toBeUndefined();
    // Setting again starts the time over.
    map.set('a', 'second', 1_000);
    expect(map.get('a', 1_500)).toBe('second');
    map.delete('a');
    expect(map.get('a', 1_500)).toBeUndefined();
  });

  it('sweeps expired entries once it grows past its bound, keeping the live ones', () => {
    const map = new ExpiringMap<number>(100, 2);
    map.set('old', 1, 0);
    map.set('older', 2, 0);
    map.set('new', 3, 200);
    expect(map.get('new', 200)).toBe(3);
    expect(map.get('old', 0)).toBeUndefined();
    expect(map.get('older', 0)).toBeUndefined();
  });
});
