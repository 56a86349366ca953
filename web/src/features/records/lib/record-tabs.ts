import { RECORD_TABS, type RecordKind, type RecordTab } from '@uis/proto/browser';

export { RECORD_TABS, type RecordTab };

/** The panel's tabs: a tab per record kind, then ours, which the study export carries instead. */
export const PANEL_TABS = [...RECORD_TABS, 'Device checks'] as const;
export type PanelTab = (typeof PANEL_TABS)[number];

/** Whether the tab has a File.csv export of its own. */
export const isRecordTab = (tab: PanelTab): tab is RecordTab =>
  (RECORD_TABS as readonly string[]).includes(tab);

/**
 * What each tab exports. Prompts export prompts: the source exported pixels from that tab, a slip
 * we fix deliberately (README).
 */
export const EXPORT_KIND_OF_TAB: Record<RecordTab, RecordKind> = {
  Messages: 'messages',
  Pixels: 'pixels',
  Prompts: 'prompts',
  Playback: 'playback',
};

/** Rows of the Messages and Pixels tabs rendered at a time (a long session records thousands of clicks). */
export const RECORD_PAGE_SIZE = 200;
