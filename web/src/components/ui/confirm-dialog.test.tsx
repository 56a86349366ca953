import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

function renderDialog() {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <div>
      <button type="button">behind</button>
      <ConfirmDialog
        title="Delete your account?"
        message="Gone for good."
        confirmLabel="Delete my account"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    </div>,
  );
  return { onConfirm, onCancel };
}

describe('ConfirmDialog', () => {
  it('is a labelled alert dialog that starts on Cancel and confirms only on its button', () => {
    const { onConfirm, onCancel } = renderDialog();
    const dialog = screen.getByRole('alertdialog', { name: 'Delete your account?' });
    expect(dialog.getAttribute('aria-describedby')).toBe(screen.getByText('Gone for good.').id);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('cancels on Escape and on a press on the backdrop, not on one inside', () => {
    const { onCancel } = renderDialog();
    fireEvent.mouseDown(screen.getByRole('alertdialog'));
    expect(onCancel).not.toHaveBeenCalled();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledOnce();
    fireEvent.mouseDown(screen.getByRole('alertdialog').parentElement!);
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it('keeps Tab on its own buttons', () => {
    renderDialog();
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const confirm = screen.getByRole('button', { name: 'Delete my account' });
    confirm.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    screen.getByRole('button', { name: 'behind' }).focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
  });
});
