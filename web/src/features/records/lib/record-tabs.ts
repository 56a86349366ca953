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
