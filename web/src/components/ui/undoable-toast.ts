/**
 * The toast with an Undo button (a held deletion), apart from `notify`: the login route bundles
 * toast.ts, and only the records' screens need this.
 */
const sonner = () => import('sonner');

/** How long a deleted message can be taken back (its Undo toast); its deletion is sent after. */
export const UNDO_MS = 10_000;

export interface UndoableToast {
  undoLabel: string;
  durationMs: number;
  onUndo: () => void;
  onClose: () => void;
}

let undoables = 0;

export const undoableToast = {
  /**
   * Shows `text` with an Undo button for `durationMs`: `onUndo` when it is pressed, `onClose` when
   * the researcher closes the toast instead. Answers a function that takes it down.
   */
  show: (text: string, { undoLabel, durationMs, onUndo, onClose }: UndoableToast): (() => void) => {
    const id = `undoable-${++undoables}`;
    let settled = false;
    void sonner().then(({ toast }) => {
      if (settled) return;
      toast(text, {
        id,
        duration: durationMs,
        action: { label: undoLabel, onClick: onUndo },
        onDismiss: () => {
          if (!settled) onClose();
        },
      });
    });
    return () => {
      settled = true;
      void sonner().then(({ toast }) => toast.dismiss(id));
    };
  },
};
