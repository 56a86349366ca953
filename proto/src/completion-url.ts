/** A placeholder for one of the participant's panel ids in a completion URL: {{PROLIFIC_PID}}. */
const PLACEHOLDER = /\{\{([A-Za-z0-9_]+)\}\}|%7B%7B([A-Za-z0-9_]+)%7D%7D/gi;

/**
 * The session's completion URL for one participant: each {{NAME}} (as typed, or percent-encoded)
 * becomes their panel id NAME from the join link, encoded for a URL, so a follow-up questionnaire
 * knows who comes; a name they have no id for becomes empty (the template never reaches them).
 */
export function completionUrlFor(url: string, panelIds: Readonly<Record<string, string>>): string {
  return url.replace(PLACEHOLDER, (_, typed?: string, encoded?: string) =>
    encodeURIComponent(panelIds[(typed ?? encoded)!] ?? ''),
  );
}
