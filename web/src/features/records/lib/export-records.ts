import { EXPORT_FILE_NAME } from '@uis/proto/browser';
import { download, saveFile } from '../../../api/client';
import { EXPORT_KIND_OF_TAB, type RecordTab } from './record-tabs';

/** Downloads the records of the current tab as File.csv (the server writes the CSV, header row first). */
export async function exportRecords(sessionId: string, tab: RecordTab): Promise<void> {
  const blob = await download('exportRecords', { sessionId, kind: EXPORT_KIND_OF_TAB[tab] });
  saveFile(blob, EXPORT_FILE_NAME);
}
