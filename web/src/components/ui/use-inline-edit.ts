import { VALIDATION_TEXTS } from '@uis/proto/browser';
import { DEBOUNCE_MS } from '../../config/ui-constants';
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { useDebouncedCallback } from 'use-debounce';

/**
 * 'title': one line (a group title): saved trimmed, Enter ends the edit, and so does a press or a
 * Tab outside the row (spec section 4: "Clicking outside ends edit mode for titles").
 * 'text': several lines (a chat message): saved as typed, Enter is a new line.
 */
export type InlineEditMode = 'title' | 'text';

export interface InlineEdit {
  editing: boolean;
  /** 'This field must not be empty' while the draft is blank. */
  error: string | null;
  /** The row: presses and focus outside it end a title's edit. */
  containerRef: RefObject<HTMLLIElement | null>;
  start: () => void;
  /** Ends the edit now, saving a changed draft that is not blank. */
  finish: () => void;
  /** Ends the edit without saving (also drops a save waiting for the pause). */
  cancel: () => void;
  /** For the input or textarea: focused, caret at the end, when the edit starts. */
  inputProps: {
    ref: RefObject<(HTMLInputElement & HTMLTextAreaElement) | null>;
    value: string;
    onChange: (event: { target: { value: string } }) => void;
    onKeyDown: (event: KeyboardEvent) => void;
    onBlur: (event: FocusEvent) => void;
  };
}

/**
 * Inline editing of a group title or a message (spec section 4): read-only until `start` (the edit
 * icon); the draft is saved after a DEBOUNCE_MS pause in typing, and the edit then ends. A blank
 * draft is never saved: the edit stays open with the empty-field text. Escape drops the draft. A
 * save still waiting for the pause when the row goes away is sent then, not lost.
 */
export function useInlineEdit(
  value: string,
  onSave: (text: string) => void,
  mode: InlineEditMode,
): InlineEdit {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const containerRef = useRef<HTMLLIElement>(null);
  const inputRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  const save = (text: string): void => {
    const saved = mode === 'title' ? text.trim() : text;
    if (saved.trim() && saved !== value) onSave(saved);
  };

  const saveAfterPause = useDebouncedCallback(
    (text: string) => {
      if (!text.trim()) return;
      save(text);
      setEditing(false);
    },
    DEBOUNCE_MS,
    { flushOnExit: true },
  );

  const finish = () => {
    saveAfterPause.cancel();
    save(draft);
    setEditing(false);
  };
  const cancel = () => {
    saveAfterPause.cancel();
    setEditing(false);
  };

  useEffect(() => {
    const input = inputRef.current;
    if (!editing || !input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [editing]);

  // A title's edit ends on a press outside the row; the listener lives only while editing.
  const finishRef = useRef(finish);
  finishRef.current = finish;
  useEffect(() => {
    if (!editing || mode !== 'title') return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) finishRef.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [editing, mode]);

  return {
    editing,
    error: editing && !draft.trim() ? VALIDATION_TEXTS.empty : null,
    containerRef,
    start: () => {
      setDraft(value);
      setEditing(true);
    },
    finish,
    cancel,
    inputProps: {
      ref: inputRef,
      value: draft,
      onChange: (event) => {
        setDraft(event.target.value);
        saveAfterPause(event.target.value);
      },
      onKeyDown: (event) => {
        if (!editing) return;
        if (event.key === 'Escape') cancel();
        if (event.key === 'Enter' && mode === 'title') finish();
      },
      // Keyboard users leave a title by Tab: focus moving out of the row ends it like a press outside.
      onBlur: (event) => {
        const next = event.relatedTarget as Node | null;
        if (mode === 'title' && next && !containerRef.current?.contains(next)) finish();
      },
    },
  };
}
