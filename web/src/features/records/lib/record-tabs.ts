import { RECORD_TABS, type RecordKind, type RecordTab } from '@uis/proto/browser';
import { RECORD_PANEL_TEXTS } from '../../../i18n/en/records';

export { RECORD_TABS, type RecordTab };

/**
 * The panel's tabs: a tab per record kind (the spec's names, key and label at once), then ours, which
 * the study export carries instead (a key; its label is in the catalog).
 */
export const PANEL_TABS = [...RECORD_TABS, 'deviceChecks'] as const;
export type PanelTab = (typeof PANEL_TABS)[number];

/** Whether the tab has a CSV export of its own. */
export const isRecordTab = (tab: PanelTab): tab is RecordTab =>
  (RECORD_TABS as readonly string[]).includes(tab);

/** What a tab says on its button. */
export const panelTabName = (tab: PanelTab): string =>
  isRecordTab(tab) ? tab : RECORD_PANEL_TEXTS.deviceChecks;

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
