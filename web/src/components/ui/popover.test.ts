import { describe, expect, it } from 'vitest';
import { popoverPosition } from './popover';

const viewport = { innerWidth: 1200, innerHeight: 800 };
const anchorAt = (top: number, right: number) => ({
  top,
  bottom: top + 30,
  left: right - 30,
  right,
  width: 30,
  height: 30,
});
const panel = { width: 236, height: 240 };

describe('popoverPosition', () => {
  it('opens under the anchor, right edges aligned', () => {
    expect(popoverPosition(anchorAt(100, 600), panel, viewport)).toEqual({ top: 136, left: 364 });
  });

  it('opens above when there is no room below', () => {
    expect(popoverPosition(anchorAt(700, 600), panel, viewport)).toEqual({ top: 454, left: 364 });
  });

  it('stays inside the window on a narrow screen', () => {
    expect(popoverPosition(anchorAt(100, 120), panel, { innerWidth: 390, innerHeight: 844 }).left).toBe(8);
    expect(popoverPosition(anchorAt(100, 1200), panel, viewport).left).toBe(1200 - 8 - 236);
  });
});
