import { sessionExportFileName } from '@uis/proto/browser';
import { download, saveFile } from '../../../api/client';
import { EXPORT_KIND_OF_TAB, type RecordTab } from './record-tabs';

/**
 * Downloads the records of the current tab (the server writes the CSV, header row first), named after
 * the session as the server names it: `<title-slug>-<kind>.csv`.
 */
export async function exportRecords(sessionId: string, sessionTitle: string, tab: RecordTab): Promise<void> {
  const kind = EXPORT_KIND_OF_TAB[tab];
  const blob = await download('exportRecords', { sessionId, kind });
  saveFile(blob, sessionExportFileName(sessionTitle, kind));
}
