/** The researcher's dashboard's own English texts (the dashboard route's chunk carries this module). */
export const DASHBOARD_TEXTS = {
  groups: 'Groups',
  groupTitle: 'Group title',
  hideGroups: 'Hide groups',
  showGroups: 'Show groups',
  noGroups: 'No groups yet.',
  doneEditing: 'Done editing',
  editGroupTitle: 'Edit group title',
  deleteGroup: 'Delete group',
} as const;

/** What a deletion's confirmation names: its heading and its button. */
export const DELETION_TEXTS = {
  deleteSession: 'Delete session',
  deleteGroup: 'Delete group',
  counting: 'Counting its messages and clicks…',
  notCounted: 'Its messages and clicks could not be counted: whatever it holds is deleted with it.',
  cannotUndo: 'This cannot be undone.',
  exportFirst: 'Export the study first if you need its records.',
} as const;

export const deleteSessionHeading = (title: string): string => `Delete the session “${title}”?`;
export const deleteGroupHeading = (title: string): string => `Delete the group “${title}”?`;

/** '1 message', '12 clicks', 'no clicks'. */
const countOf = (count: number, one: string, many: string): string =>
  count === 0 ? `no ${many}` : count === 1 ? `1 ${one}` : `${count} ${many}`;

/** What deleting a session or a group loses: records' counts, and the uploaded videos. */
export interface DeletionLoss {
  /** The sessions deleted (1 for a session). */
  sessions: number;
  messages: number;
  clicks: number;
  /** Uploaded videos deleted with them. */
  videos: number;
}

/** The records there are: '12 messages and 3 clicks', '3 clicks' (at least one of them). */
const recordsText = ({ messages, clicks }: DeletionLoss): string =>
  [
    ...(messages > 0 ? [countOf(messages, 'message', 'messages')] : []),
    ...(clicks > 0 ? [countOf(clicks, 'click', 'clicks')] : []),
  ].join(' and ');

/**
 * A session's loss: 'Deleting it also deletes its 12 messages and 3 clicks, and its uploaded video
 * “intro.mp4”.' `videoName` null: it has none (said only of a video session, `videoSession`).
 */
export function sessionLossText(loss: DeletionLoss, videoName: string | null, videoSession: boolean): string {
  const hasRecords = loss.messages + loss.clicks > 0;
  const video = videoName === null ? null : `its uploaded video “${videoName}”`;
  const lines = [
    hasRecords
      ? `Deleting it also deletes its ${recordsText(loss)}${video ? `, and ${video}` : ''}.`
      : `It has no messages or clicks yet.${video ? ` Deleting it also deletes ${video}.` : ''}`,
  ];
  if (videoSession && videoName === null) lines.push('It has no uploaded video.');
  return [...lines, DELETION_TEXTS.cannotUndo, ...(hasRecords ? [DELETION_TEXTS.exportFirst] : [])].join(' ');
}

/** A group's loss: 'Deleting it also deletes its 3 sessions, with 40 messages and 12 clicks in all, and 2 uploaded videos.' */
export function groupLossText(loss: DeletionLoss): string {
  if (loss.sessions === 0) return `It has no sessions. ${DELETION_TEXTS.cannotUndo}`;
  const hasRecords = loss.messages + loss.clicks > 0;
  const sessions = countOf(loss.sessions, 'session', 'sessions');
  const records = hasRecords ? `with ${recordsText(loss)} in all` : 'with no messages or clicks yet';
  const videos = loss.videos > 0 ? `, and ${countOf(loss.videos, 'uploaded video', 'uploaded videos')}` : '';
  return [
    `Deleting it also deletes its ${sessions}, ${records}${videos}.`,
    DELETION_TEXTS.cannotUndo,
    ...(hasRecords ? [DELETION_TEXTS.exportFirst] : []),
  ].join(' ');
}
