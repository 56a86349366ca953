/** The consent section's own English texts (the edit-session route's chunk carries this module). */
export const CONSENT_TEXTS = {
  noConsent: 'No consent asked',
  agreements: 'Agreements',
  withdrewSince: ' (withdrew since)',
  withdrawals: 'Withdrawals',
  loadingWithdrawals: 'Loading withdrawals…',
  noWithdrawals: 'No participant has withdrawn.',
  /** Before the time of a withdrawal. */
  withdrew: 'withdrew ',
  errorGettingWithdrawals: 'Error getting withdrawals',
} as const;

/** Before the time the researcher saved the current consent text. */
export const savedVersionText = (version: number): string => `Version ${version}, saved `;

/** After that time: how many agreed to it. */
export const agreedText = (count: number): string =>
  `: ${count} ${count === 1 ? 'participant' : 'participants'} agreed to it.`;

export const agreementsText = (count: number): string => `Agreements (${count})`;

/** Before the time a participant agreed to a version. */
export const agreedVersionText = (version: number): string => `version ${version}, `;

/** After the time of a withdrawal: what it deleted ('2 messages and 1 click'). */
export const withdrawalDeletedText = (what: string): string => `: ${what} deleted`;

export const CONSENT_SECTION_TEXTS = {
  heading: 'Consent',
  hint: 'Participants read and agree to this text before the live session opens. Leave it empty to ask for no consent. Every change is a new version that participants agree to again, also those already in the live session.',
  save: 'Save consent text',
  errorGetting: 'Error getting the consent text',
  removed: 'Consent removed',
} as const;

export const consentSavedText = (version: number): string => `Consent text saved as version ${version}`;
