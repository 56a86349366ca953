import { PANEL_IDS_MAX, PANEL_ID_NAME_PATTERN, PANEL_ID_VALUE_MAX_CHARS } from '@uis/proto/browser';
import type { PanelIds } from '@uis/proto';

/**
 * A recruitment panel's ids from a join link's query (Prolific's PROLIFIC_PID, STUDY_ID, SESSION_ID,
 * MTurk's workerId, ...): every parameter with a name the server keeps (PANEL_ID_NAME_PATTERN), in
 * the link's order, at most PANEL_IDS_MAX. A repeated name keeps its first value; an empty value or
 * one longer than any id is left out, so a stray parameter never stops a participant from joining.
 */
export function panelIdsOf(query: string | URLSearchParams): PanelIds {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const ids: PanelIds = {};
  let count = 0;
  for (const [name, value] of params) {
    if (count === PANEL_IDS_MAX) break;
    if (!PANEL_ID_NAME_PATTERN.test(name) || Object.hasOwn(ids, name)) continue;
    if (value === '' || value.length > PANEL_ID_VALUE_MAX_CHARS) continue;
    ids[name] = value;
    count++;
  }
  return ids;
}

/**
 * What to append to a join link on Prolific: its placeholders, which Prolific fills in with each
 * participant's ids (any panel's own work the same way: whatever the query carries is kept).
 */
export const PROLIFIC_QUERY =
  '?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}';
