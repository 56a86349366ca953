import type { SessionState } from '@uis/proto';
import { UPLOAD_ACCEPT } from '@uis/proto/browser';

/** The session editor's own English texts (the edit-session route's chunk carries this module). */
export const EDITOR_TEXTS = {
  /** A session's heading while its title is not known yet. */
  session: 'Session',
  start: 'Start',
  openNow: 'Open now',
  openNowHint: 'Let participants in without opening the live page (for a session that runs without you)',
  notOpened: 'The session was not opened',
  editSession: 'Edit session',
  loadingSession: 'Loading session…',
  actions: 'Actions',
  /** One of the actions, in 'Add action'. */
  action: 'action',
  prompts: 'Prompts',
  /** One of the prompts, in 'Add prompt'. */
  promptNoun: 'prompt',
  actionName: 'Action name',
  hexColour: 'Hex colour',
  transparent: 'Transparent',
  promptTime: 'Prompt time (hh:mm:ss)',
  promptTimePlaceholder: 'hh:mm:ss',
  promptDuration: 'Prompt duration (seconds)',
  promptDurationPlaceholder: 'seconds',
  sourcePlaceholder: 'https://www.youtube.com/watch?v=...',
  completionUrlPlaceholder: 'https://survey.example.org/thanks',
  source: 'Source',
  uploadProgress: 'Upload progress',
  chooseIcon: 'Choose an icon',
  iconStyle: 'Icon style',
  loadingIcons: 'Loading icons…',
  promptText: 'Prompt text',
  searchIcons: 'Search icons',
  closeIconPicker: 'Close icon picker',
  backToDashboard: 'Back to dashboard',
  hideEditPanel: 'Hide edit panel',
  showEditPanel: 'Show edit panel',
  chooseColour: 'Choose a colour',
  deleteAction: 'Delete action',
  deletePrompt: 'Delete prompt',
  deleteVideo: 'Delete video',
  title: 'Title',
  scope: 'Scope',
  type: 'Type',
  track: 'Track',
  completionUrl: 'Completion URL',
} as const;

/** An editor list's add button: 'Add action'. */
export const addItemText = (noun: string): string => `Add ${noun}`;

/** An editor list's empty state while it loads, then once loaded ('Actions' → 'Loading actions…'). */
export const loadingListText = (title: string): string => `Loading ${title.toLowerCase()}…`;
export const emptyListText = (title: string): string => `No ${title.toLowerCase()} yet.`;

export const uploadingText = (percent: number): string => `Uploading ${percent}%`;

/** The icon picker's search found nothing. */
export const noIconMatchText = (query: string): string => `No icon matches “${query}”.`;

export const iconCountText = (count: number): string => (count === 1 ? '1 icon' : `${count} icons`);

/** The icon picker's first view: icons for reactions, and the way to every other icon. */
export const REACTION_ICON_TEXTS = {
  suggested: 'Icons for reactions: thumbs, hearts, faces, hands and more. Search to find any other icon.',
} as const;
export const showAllIconsText = (count: number): string => `Show all ${count} icons`;

/** Why a chosen file is not uploaded (not a spec text: the spec names the rule, not a message). */
export const NOT_MP4_TEXT = `Only ${UPLOAD_ACCEPT} files can be uploaded.`;

/** The scope field's note on entries that were not added: '“a”, “b” and 3 more are not e-mail addresses, …'. */
export const notAddedListText = (names: readonly string[], more: number, count: number): string => {
  const andMore = more > 0 ? ` and ${more} more` : '';
  const are = count === 1 ? 'is not an e-mail address' : 'are not e-mail addresses';
  return `${names.join(', ')}${andMore} ${are}, so ${count === 1 ? 'it was' : 'they were'} not added.`;
};

/** An action's colour swatch and icon button, for screen readers. */
export const colourText = (value: string): string => `Colour ${value}`;
export const iconText = (icon: string, style: string): string => `Icon ${icon} (${style})`;

/** The scope field's menu entry for an address not in the directory yet. */
export const inviteText = (email: string): string => `Invite ${email}`;

/** How an edit's save went, beside the field (a polite live region). */
export const SAVE_STATUS_TEXTS = {
  saved: 'Saved',
} as const;

/** A refused or failed save, with the server's reason. */
export const notSavedText = (reason: string): string => `Not saved: ${reason}`;

/**
 * Who can see the session, under the scope field: Everyone (null scope on the server), the people
 * listed, or nobody (an emptied list).
 */
export function scopeHelpText(everyone: boolean, listed: number): string {
  if (everyone)
    return 'Everyone: anyone signed in to the app finds this session in their list and can join it.';
  if (listed === 0)
    return 'Nobody: no participant can find or join this session until you add someone or share its join link.';
  const people = listed === 1 ? 'the 1 person listed' : `the ${listed} people listed`;
  return `Only ${people}: they find this session in their list and can join it. Addresses you add are sent an invitation.`;
}

/** Help under the editor's fields: what they are for. */
export const FIELD_HELP_TEXTS = {
  track:
    'Your own label for this session, such as the study arm or condition it belongs to. Only you see it: participants are not shown it.',
} as const;

/** Asked before the uploaded video goes: its delete icon, or a type change away from video. */
export const VIDEO_DELETION_TEXTS = {
  deleteHeading: 'Delete the uploaded video?',
  deleteConfirm: 'Delete video',
  changeTypeConfirm: 'Change type and delete video',
} as const;

export const deleteVideoWarningText = (name: string): string =>
  `“${name}” is deleted: participants see no video and the replay has none until you upload another. This cannot be undone.`;

export const changeTypeHeading = (type: string): string => `Change the type to ${type}?`;

export const changeTypeWarningText = (name: string): string =>
  `Only a video session keeps an uploaded video: “${name}” is deleted when the type changes. This cannot be undone.`;

/** A session's state as the editor shows it (proto's SESSION_STATES). */
export const SESSION_STATE_TEXTS = {
  not_started: 'Not started: participants wait',
  live: 'Live',
  ended: 'Ended: closed to everyone',
} as const satisfies Record<SessionState, string>;
