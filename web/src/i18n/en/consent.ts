/** The consent gate's and the consent section's own English texts (their routes' chunks carry this module). */
export const CONSENT_TEXTS = {
  consentText: 'Consent text',
  noConsent: 'No consent asked',
  agreements: 'Agreements',
  withdrewSince: ' (withdrew since)',
  withdrawals: 'Withdrawals',
  loadingWithdrawals: 'Loading withdrawals…',
  noWithdrawals: 'No participant has withdrawn.',
  /** Before the time of a withdrawal. */
  withdrew: 'withdrew ',
} as const;

/** The consent text's version and the start of its checksum, in the gate. */
export const consentVersionText = (version: number): string => `Version ${version} · SHA-256`;

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
