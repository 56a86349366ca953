import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import './confirm-dialog.css';
import { COMMON_TEXTS } from '../../i18n/en/common';

/** Tab cycles through the dialog's buttons: the page behind is out of reach while it is open. */
function keepTabInside(event: KeyboardEvent, dialog: HTMLElement): void {
  const buttons = [...dialog.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
  const [first, last] = [buttons[0], buttons[buttons.length - 1]];
  const focused = document.activeElement;
  const leaving = event.shiftKey ? focused === first : focused === last;
  if (!leaving && dialog.contains(focused)) return;
  event.preventDefault();
  (event.shiftKey ? last : first)?.focus();
}

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal question before something that cannot be undone. Rendered only while open; Escape and a
 * click on the backdrop cancel; focus starts on Cancel, the safe choice, and returns to the opener.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const messageId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  const cancel = useRef(onCancel);
  cancel.current = onCancel;

  useEffect(() => {
    // Focus goes back where it was (the delete icon) when the dialog closes, if that is still there.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') cancel.current();
      if (event.key === 'Tab' && dialogRef.current) keepTabInside(event, dialogRef.current);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // On the body, so it may be opened from anywhere (a list row: a <ul> holds only <li>s).
  return createPortal(
    <div
      className="confirm-dialog-backdrop"
      onMouseDown={(event) => event.target === event.currentTarget && onCancel()}
    >
      <div
        ref={dialogRef}
        className="confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
      >
        <h2 id={titleId} className="confirm-dialog-title">
          {title}
        </h2>
        {/* Polite: a message completed once the dialog is open (counts that arrive) is read out too. */}
        <p id={messageId} className="confirm-dialog-message" aria-live="polite">
          {message}
        </p>
        <div className="confirm-dialog-actions">
          <button ref={cancelRef} type="button" className="button secondary" onClick={onCancel}>
            {COMMON_TEXTS.cancel}
          </button>
          <button
            type="button"
            className="button confirm-dialog-danger"
            onClick={onConfirm}
            disabled={busy}
            aria-busy={busy}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
