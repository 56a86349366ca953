/**
 * Toasts with the spec's texts (section 8): top-centre, 3000 ms, set on the <AppToaster> in app.tsx.
 * sonner loads after the first screen is painted (the login route does not wait for it); a toast
 * raised before its <Toaster> mounts is shown when it does.
 */
const sonner = () => import('sonner');

export const notify = {
  /** One toast per text (the same failure twice does not stack); `description` adds a line under it. */
  error: (text: string, description?: string): void =>
    void sonner().then(({ toast }) => toast.error(text, { id: text, description })),
  success: (text: string): void => void sonner().then(({ toast }) => toast.success(text, { id: text })),
  /**
   * A toast with an Undo button for `durationMs` (a held deletion): `onUndo` when it is pressed,
   * `onClose` when the researcher closes the toast instead. Answers a function that takes it down.
   */
  undoable: (text: string, { undoLabel, durationMs, onUndo, onClose }: UndoableToast): (() => void) => {
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

export interface UndoableToast {
  undoLabel: string;
  durationMs: number;
  onUndo: () => void;
  onClose: () => void;
}

let undoables = 0;
