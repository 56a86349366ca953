/** The web app's own timings and layout (spec sections 2, 4 and 9): no server reads them. */

/** Pause after the last keystroke before an edit, a search or a title is sent. */
export const DEBOUNCE_MS = 1000;
/** Toasts close after this long. */
export const TOAST_MS = 3000;
/** Login button progress: +15 points every 500 ms, never past 99 until the call ends. */
export const LOGIN_PROGRESS_STEP = 15;
export const LOGIN_PROGRESS_INTERVAL_MS = 500;
export const LOGIN_PROGRESS_CAP = 99;
export const LOGIN_PROGRESS_DONE = 100;
/** After reaching 100 the button goes back to idle after this long. */
export const LOGIN_PROGRESS_IDLE_DELAY_MS = 200;
/** How long the marker stays at the spot a participant clicked. */
export const CLICK_MARKER_MS = 2000;
/** The researcher's monitor asks for a new snapshot this often. */
export const MONITOR_REFRESH_MS = 1_000;

// Layout. Every breakpoint applies when the width is strictly under it.
export const BREAKPOINTS_PX = {
  /** Layout is mobile when the smaller screen side is under this. */
  mobileSmallerSide: 768,
  /** The session editor's edit panel becomes collapsible. */
  editPanelNarrow: 850,
  /** The live session uses its small layout. */
  liveSmall: 700,
  /** Dashboard session cards shrink. */
  cardsCompact: 800,
  /** The dashboard's left bar collapses (it also collapses on mobile). */
  leftBarCollapse: 500,
  /** 'Create Group' becomes '+ Create'. */
  createGroupShort: 900,
  /** The editor's caption becomes small. */
  smallCaption: 460,
} as const;
