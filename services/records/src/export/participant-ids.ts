import { createHmac } from 'node:crypto';

/** Who a record's author is in an export: a participant_id for their e-mail. */
export interface ParticipantIds {
  of(email: string): string;
}

/** Hex digits of a participant_id: 48 bits, so a study of 10,000 people has a clash about once in 50,000. */
const ID_HEX_DIGITS = 12;

/**
 * The exports' pseudonyms: `P-` and the first 12 hex digits of HMAC-SHA256(key, researcher id, lower-cased
 * e-mail). The same person has the same id in every export the same researcher makes (a session's or its
 * group's, today's or next year's), and different ids for different researchers, so two researchers'
 * exports cannot be joined on it; without the key nobody can tell an id from an e-mail they guess.
 * `key` is PARTICIPANT_ID_SECRET (or derived from JWT_SECRET): ids change if it does.
 */
export function participantIds(key: string, researcherId: string): ParticipantIds {
  const known = new Map<string, string>();
  return {
    of(email) {
      const address = email.toLowerCase();
      let id = known.get(address);
      if (id === undefined) {
        const digest = createHmac('sha256', key).update(`${researcherId}\n${address}`).digest('hex');
        id = `P-${digest.slice(0, ID_HEX_DIGITS)}`;
        known.set(address, id);
      }
      return id;
    },
  };
}

/** The key of participantIds: PARTICIPANT_ID_SECRET, or else one derived from JWT_SECRET (never JWT_SECRET itself). */
export const participantIdKey = (config: { PARTICIPANT_ID_SECRET?: string; JWT_SECRET: string }): string =>
  config.PARTICIPANT_ID_SECRET ??
  createHmac('sha256', config.JWT_SECRET).update('uis-export-participant-ids').digest('hex');
