import type { ParticipantSource } from '@uis/proto';

/** The join link's and the session's people's own English texts (the edit-session route's chunk carries this module). */
export const PARTICIPATION_TEXTS = {
  copy: 'Copy',
  newLink: 'New link',
  revoke: 'Revoke',
  panelQuestion: 'Recruiting on Prolific or another panel?',
  panelHint:
    "Append the panel's placeholders to the link, and the panel fills in each participant's ids. Whatever query parameters the link carries (names of letters, digits and underscores) are kept as that participant's panel ids: listed under People and in the study export.",
  revokeHeading: 'Revoke the join link?',
  replaceHeading: 'Make a new join link?',
  linkExplained: 'Anyone with a join link signs in (or signs up) and joins this session, added to Scope.',
  cap: 'Most participants (optional)',
  noCap: 'No cap',
  makeLink: 'Make a join link',
  joinLink: 'Join link',
  loading: 'Loading…',
  joined: 'Joined',
  invited: 'Invited',
  people: 'People',
  peopleNotLoaded: 'People could not be loaded.',
  loadingPeople: 'Loading people…',
  nobodyInvitedEveryone:
    'Scope is Everyone: every participant can open this session, so nobody is invited by e-mail. People who join through the join link appear here.',
  nobodyYet:
    'Nobody yet. E-mail addresses added to Scope are invited when the session is saved; people who join through the join link appear here too.',
  joinLinkNotLoaded: 'The join link could not be loaded.',
  copyByHand: 'Select it and copy it yourself.',
  linkToShare: 'Link to share',
  copyJoinLink: 'Copy the join link',
  linkForProlific: 'Link for Prolific',
  copyProlificLink: 'Copy the link for Prolific',
  revokeWarning: 'The link stops adding people at once. Those who already joined stay in the session.',
  revokeLink: 'Revoke link',
  replaceWarning:
    'The current link stops working and a new one takes its place, with the same cap. Those who already joined stay in the session.',
  makeNewLink: 'Make a new link',
  linkNotMade: 'The join link was not made.',
  linkRevoked: 'The join link was revoked.',
  linkNotRevoked: 'The join link was not revoked.',
  resendInvitation: 'Re-send invitation',
  sendInvitation: 'Send invitation',
  invitationNotSent: 'The invitation was not sent.',
  peopleNotLoadedError: 'The people of this session could not be loaded.',
  refreshPeople: 'Refresh people',
  noInvitationYet: 'No invitation sent yet',
  /** A later join that carried no panel ids. */
  noPanelIds: 'none',
} as const;

/** How a person came to the session, in the editor's words. */
export const SOURCE_LABELS = {
  scope: 'Invited by e-mail',
  link: 'Join link',
} as const satisfies Record<ParticipantSource, string>;

/** A copied field ('Link to share copied.'), or one the browser would not copy. */
export const copiedText = (what: string): string => `${what} copied.`;
export const notCopiedText = (what: string): string => `${what} could not be copied.`;

export const invitationSentText = (email: string): string => `Invitation sent to ${email}.`;

/** 'Invited 2 times, last 2025-05-12 14:03'. */
export const invitedTimesText = (invitations: number, last: string): string =>
  `Invited ${invitations === 1 ? 'once' : `${invitations} times`}, last ${last}`;

/** A person's later joins that carried other panel ids than their first. */
export const conflictsListText = (joins: readonly string[]): string =>
  `Joined again with other panel ids, not kept: ${joins.join('; ')}`;

export const joinCapErrorText = (max: number): string =>
  `Give a whole number from 1 to ${max}, or leave it empty for no cap.`;

/** '3 joined of at most 50', or '3 joined, no cap'. */
export const joinedText = (joined: number, cap: number | null): string =>
  cap === null ? `${joined} joined, no cap` : `${joined} joined of at most ${cap}`;

/** A person's invite button, for screen readers: 'Re-send invitation to ann@uni.edu'. */
export const inviteToText = (invite: string, email: string): string => `${invite} to ${email}`;

/** A person's panel ids, for screen readers. */
export const panelIdsOfText = (email: string): string => `Panel ids of ${email}`;

/** When a person joined (a short time). */
export const joinedAtText = (time: string): string => `Joined ${time}`;
