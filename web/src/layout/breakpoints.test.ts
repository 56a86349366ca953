import { describe, expect, it } from 'vitest';
import { layoutOf, type Viewport } from './breakpoints';

const desktop: Viewport = { width: 1200, height: 800, screenWidth: 1920, screenHeight: 1080 };
const at = (width: number, screen = { screenWidth: 1920, screenHeight: 1080 }): Viewport => ({
  ...desktop,
  width,
  ...screen,
});

describe('layoutOf', () => {
  it('uses the full layout at the default size 1200x800', () => {
    expect(layoutOf(desktop)).toEqual({
      mobile: false,
      editPanelNarrow: false,
      smallCaption: false,
      liveSmall: false,
      cardsCompact: false,
      leftBarCollapsible: false,
      createGroupShort: false,
    });
  });

  it('applies each breakpoint strictly under its number', () => {
    expect(layoutOf(at(900)).createGroupShort).toBe(false);
    expect(layoutOf(at(899)).createGroupShort).toBe(true);
    expect(layoutOf(at(850)).editPanelNarrow).toBe(false);
    expect(layoutOf(at(849)).editPanelNarrow).toBe(true);
    expect(layoutOf(at(800)).cardsCompact).toBe(false);
    expect(layoutOf(at(799)).cardsCompact).toBe(true);
    expect(layoutOf(at(700)).liveSmall).toBe(false);
    expect(layoutOf(at(699)).liveSmall).toBe(true);
    expect(layoutOf(at(500)).leftBarCollapsible).toBe(false);
    expect(layoutOf(at(499)).leftBarCollapsible).toBe(true);
    expect(layoutOf(at(460)).smallCaption).toBe(false);
    expect(layoutOf(at(459)).smallCaption).toBe(true);
  });

  it('is mobile when the smaller screen side is under 768, whichever way the phone is held', () => {
    const phone = { screenWidth: 390, screenHeight: 844 };
    expect(layoutOf(at(390, phone)).mobile).toBe(true);
    expect(layoutOf(at(844, { screenWidth: 844, screenHeight: 390 })).mobile).toBe(true);
    expect(layoutOf(at(1000, { screenWidth: 1024, screenHeight: 768 })).mobile).toBe(false);
    expect(layoutOf(at(1000, { screenWidth: 1024, screenHeight: 767 })).mobile).toBe(true);
  });

  it('makes the edit panel collapsible and the left bar collapse on mobile at any width', () => {
    const tablet = layoutOf(at(1000, { screenWidth: 1000, screenHeight: 700 }));
    expect(tablet.editPanelNarrow).toBe(true);
    expect(tablet.leftBarCollapsible).toBe(true);
  });
});
