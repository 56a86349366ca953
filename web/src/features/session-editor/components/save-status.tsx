import type { SaveStatus as Status } from '../hooks/use-debounced-edits';
import { SAVE_STATUS_TEXTS, notSavedText } from '../../../i18n/en/editor';

/**
 * 'Saved' or 'Not saved: {reason}' beside an edited field, in a polite live region: screen readers
 * hear how a save went without losing their place. Always rendered (empty before any save), since a
 * live region added together with its text is often not read.
 */
export function SaveStatus({ status, id }: { status: Status | null; id?: string }) {
  const failed = status !== null && !status.saved;
  return (
    <span id={id} className={`save-status${failed ? ' failed' : ''}`} aria-live="polite">
      {status === null ? '' : status.saved ? SAVE_STATUS_TEXTS.saved : notSavedText(status.reason)}
    </span>
  );
}
