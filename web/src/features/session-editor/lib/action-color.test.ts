import { describe, expect, it } from 'vitest';
import { isTransparent, normalizeActionColor, pickerHex } from './action-color';

describe('action colours', () => {
  it('stores hex colours lower-cased and transparent as is', () => {
    expect(normalizeActionColor('#A1B2C3')).toBe('#a1b2c3');
    expect(normalizeActionColor(' #abc ')).toBe('#abc');
    expect(normalizeActionColor('#11223344')).toBe('#11223344');
    expect(normalizeActionColor('Transparent')).toBe('transparent');
  });

  it('refuses anything else', () => {
    for (const text of ['', 'red', '#12', '#12345', 'abc123', 'rgb(0,0,0)', '#ggg'])
      expect(normalizeActionColor(text), text).toBeNull();
  });

  it('gives the hex picker a #rrggbb, black for transparent', () => {
    expect(pickerHex('#abc')).toBe('#aabbcc');
    expect(pickerHex('#A1B2C3')).toBe('#a1b2c3');
    expect(pickerHex('#11223344')).toBe('#112233');
    expect(pickerHex('transparent')).toBe('#000000');
    expect(pickerHex('nonsense')).toBe('#000000');
  });

  it('knows transparent', () => {
    expect(isTransparent('transparent')).toBe(true);
    expect(isTransparent('#000000')).toBe(false);
  });
});
