import { toast } from 'sonner';
import { LIVE_CONTROL_TEXTS } from '../../../i18n/en/live-session';

/** Tells a participant that the researcher turned clicks on the video on or off (one toast at a time). */
export function announceClicks(allowed: boolean): void {
  const text = allowed ? LIVE_CONTROL_TEXTS.clicksAllowed : LIVE_CONTROL_TEXTS.clicksTurnedOff;
  toast.info(text, { id: 'live-clicks' });
}
