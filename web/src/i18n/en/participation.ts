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
} as const;

/** When a person joined (a short time). */
export const joinedAtText = (time: string): string => `Joined ${time}`;
