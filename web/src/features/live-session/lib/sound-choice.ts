/**
 * What a participant chose at a session's sound gate, kept for the tab's life (sessionStorage), so a
 * reload does not ask again: 'sound' (they heard the tone) or 'muted' (they went on without sound).
 */
export type SoundChoice = 'sound' | 'muted';

const keyOf = (sessionId: string) => `uis:sound-gate:${sessionId}`;

export function readSoundChoice(sessionId: string): SoundChoice | null {
  try {
    const value = sessionStorage.getItem(keyOf(sessionId));
    return value === 'sound' || value === 'muted' ? value : null;
  } catch {
    return null; // Storage refused (a private mode): the gate asks again.
  }
}

export function saveSoundChoice(sessionId: string, choice: SoundChoice): void {
  try {
    sessionStorage.setItem(keyOf(sessionId), choice);
  } catch {
    // Not kept: the gate asks again after a reload.
  }
}

/**
 * Whether the page has had a gesture since it loaded (Chrome 72+, Firefox 120+, Safari 16.4+; true
 * where the browser cannot tell, and the player's refusal then says so): without one, a video may
 * only autoplay muted.
 */
export const hadGesture = (): boolean =>
  (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive ??
  true;
