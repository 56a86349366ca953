import { toast } from 'sonner';

/** Tells a participant that the researcher turned clicks on the video on or off (one toast at a time). */
export function announceClicks(allowed: boolean): void {
  const text = allowed
    ? 'The researcher allowed clicks: you may click the video now.'
    : 'The researcher turned clicks off: clicks on the video are not recorded now.';
  toast.info(text, { id: 'live-clicks' });
}
