import { BREAKPOINTS_PX } from '../config/ui-constants';

/**
 * The layout rules of spec sections 2 and 9, as pure functions of the viewport, so they are tested
 * without a browser. Every breakpoint applies strictly under its number.
 */
export interface Viewport {
  width: number;
  height: number;
  /** The device screen's sides (mobile is decided by the smaller one). */
  screenWidth: number;
  screenHeight: number;
}

const isMobile = (v: Viewport): boolean =>
  Math.min(v.screenWidth, v.screenHeight) < BREAKPOINTS_PX.mobileSmallerSide;

export interface Layout {
  mobile: boolean;
  /** Session editor: the edit panel becomes collapsible. */
  editPanelNarrow: boolean;
  /** Session editor: the caption is small. */
  smallCaption: boolean;
  /** Live session: the small layout. */
  liveSmall: boolean;
  /** Dashboard: session cards shrink. */
  cardsCompact: boolean;
  /** Dashboard: the left bar collapses behind an arrow toggle. */
  leftBarCollapsible: boolean;
  /** Dashboard: 'Create Group' becomes '+ Create'. */
  createGroupShort: boolean;
}

export function layoutOf(v: Viewport): Layout {
  const mobile = isMobile(v);
  return {
    mobile,
    editPanelNarrow: mobile || v.width < BREAKPOINTS_PX.editPanelNarrow,
    smallCaption: v.width < BREAKPOINTS_PX.smallCaption,
    liveSmall: v.width < BREAKPOINTS_PX.liveSmall,
    cardsCompact: v.width < BREAKPOINTS_PX.cardsCompact,
    leftBarCollapsible: mobile || v.width < BREAKPOINTS_PX.leftBarCollapse,
    createGroupShort: v.width < BREAKPOINTS_PX.createGroupShort,
  };
}
