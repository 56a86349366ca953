import { RECORD_TABS, type RecordKind, type RecordTab } from '@uis/proto/browser';

export { RECORD_TABS, type RecordTab };

/**
 * What each tab exports. Prompts export prompts: the source exported pixels from that tab, a slip
 * we fix deliberately (README).
 */
export const EXPORT_KIND_OF_TAB: Record<RecordTab, RecordKind> = {
  Messages: 'messages',
  Pixels: 'pixels',
  Prompts: 'prompts',
};

/** Rows of the Messages and Pixels tabs rendered at a time (a long session records thousands of clicks). */
export const RECORD_PAGE_SIZE = 200;
