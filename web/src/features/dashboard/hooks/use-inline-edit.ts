import { DEBOUNCE_MS, VALIDATION_TEXTS } from '@uis/proto/browser';
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { useDebouncedCallback } from 'use-debounce';

export interface InlineEdit {
  editing: boolean;
  draft: string;
  /** 'This field must not be empty' while the draft is blank. */
  error: string | null;
  /** The element whose outside clicks end the edit (the whole row, edit icon included). */
  containerRef: RefObject<HTMLLIElement | null>;
  start: () => void;
  change: (text: string) => void;
  /** Ends the edit now, saving a changed draft that is not blank. */
  finish: () => void;
  /** Ends the edit without saving. */
  cancel: () => void;
  inputProps: {
    value: string;
    onChange: (event: { target: { value: string } }) => void;
    onKeyDown: (event: KeyboardEvent) => void;
    onBlur: (event: FocusEvent) => void;
  };
}

/**
 * An inline-editable title (spec section 4): read-only until `start` (the edit icon); the draft is
 * saved after a 1000 ms pause in typing, and the edit then ends. A click outside ends it too,
 * saving what was typed rather than losing it; Enter does the same, Escape drops the draft.
 */
export function useInlineEdit(value: string, onSave: (title: string) => void): InlineEdit {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const containerRef = useRef<HTMLLIElement>(null);

  const save = (text: string): void => {
    const title = text.trim();
    if (title && title !== value) onSave(title);
  };
  const close = () => {
    setEditing(false);
    setError(null);
  };

  // A blank draft is not saved and keeps the edit open, its error showing. (use-debounce drops a
  // pending call when the row unmounts.)
  const saveAfterPause = useDebouncedCallback((text: string) => {
    if (!text.trim()) return;
    save(text);
    close();
  }, DEBOUNCE_MS);

  const finish = () => {
    saveAfterPause.cancel();
    save(draft);
    close();
  };
  const cancel = () => {
    saveAfterPause.cancel();
    close();
  };

  // Outside pointer presses end the edit; the listener lives only while editing.
  const finishRef = useRef(finish);
  finishRef.current = finish;
  useEffect(() => {
    if (!editing) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) finishRef.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [editing]);

  const change = (text: string) => {
    setDraft(text);
    setError(text.trim() ? null : VALIDATION_TEXTS.empty);
    saveAfterPause(text);
  };

  return {
    editing,
    draft,
    error,
    containerRef,
    start: () => {
      setDraft(value);
      setError(null);
      setEditing(true);
    },
    change,
    finish,
    cancel,
    inputProps: {
      value: draft,
      onChange: (event) => change(event.target.value),
      onKeyDown: (event) => {
        if (event.key === 'Enter') finish();
        if (event.key === 'Escape') cancel();
      },
      // Keyboard users leave by Tab: focus moving out of the row ends the edit like a click outside.
      onBlur: (event) => {
        const next = event.relatedTarget as Node | null;
        if (next && !containerRef.current?.contains(next)) finish();
      },
    },
  };
}
