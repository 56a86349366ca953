import { DEBOUNCE_MS, UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import type { MessageRecord } from '@uis/proto';
import { useEffect, useRef, useState } from 'react';
import { useDebouncedCallback } from 'use-debounce';
import { useApiMutation } from '../../../api/queries';
import { IconButton } from '../../../components/ui/icon-button';
import { RecordTime } from './record-time';

/**
 * A chat message in the record panel (spec sections 2 and 4): read-only until the edit icon is
 * clicked, then saved after a DEBOUNCE_MS pause, which ends edit mode. A failed save refetches.
 */
export function MessageRow({ message }: { message: MessageRecord }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(message.message);
  /** The text on its way to the server: shown until the refetch after the save brings the stored one. */
  const [sending, setSending] = useState<string | null>(null);
  useEffect(() => setSending(null), [message.message]);
  const textBox = useRef<HTMLTextAreaElement>(null);
  const editMessage = useApiMutation('editMessage', {
    errorText: UI_TEXTS.errorEditingMessage,
    invalidates: ['getMessages'],
  });
  const deleteMessage = useApiMutation('deleteMessage', {
    errorText: UI_TEXTS.errorDeletingMessage,
    invalidates: ['getMessages'],
  });

  const save = useDebouncedCallback(
    (value: string) => {
      // An empty message is not sent: the box stays open with the spec's empty-field text.
      if (value.trim() === '') return;
      setEditing(false);
      if (value === message.message) return;
      setSending(value);
      editMessage.mutate(
        { messageId: message.message_id, message: value },
        { onError: () => setSending(null) },
      );
    },
    DEBOUNCE_MS,
    { flushOnExit: true },
  );

  const startEditing = () => {
    setText(message.message);
    setEditing(true);
    // Focus once the box is writable, with the caret at the end.
    requestAnimationFrame(() => {
      const box = textBox.current;
      if (!box) return;
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
    });
  };

  // The check icon saves now what is waiting for the pause; with nothing typed it just closes the box.
  const finishEditing = () => {
    if (save.isPending()) save.flush();
    else setEditing(false);
  };

  // Escape drops what was typed and keeps the stored text.
  const cancelEditing = () => {
    save.cancel();
    setText(message.message);
    setEditing(false);
  };

  const shown = editing ? text : (sending ?? message.message);
  const empty = editing && text.trim() === '';

  return (
    <li className={`record-message${editing ? ' editing' : ''}`}>
      <div className="record-meta">
        <span className="record-who">{message.name}</span>
        <RecordTime iso={message.time} className="record-time" />
        <span className="record-row-icons">
          <IconButton
            icon={editing ? 'check' : 'edit'}
            label={editing ? 'Save message' : 'Edit message'}
            aria-pressed={editing}
            onClick={() => (editing ? finishEditing() : startEditing())}
          />
          <IconButton
            icon="delete"
            label="Delete message"
            disabled={deleteMessage.isPending}
            onClick={() => {
              save.cancel();
              deleteMessage.mutate({ messageId: message.message_id });
            }}
          />
        </span>
      </div>
      <textarea
        ref={textBox}
        className="record-message-text"
        aria-label={`Message from ${message.name}`}
        readOnly={!editing}
        rows={1}
        value={shown}
        onChange={(event) => {
          setText(event.target.value);
          save(event.target.value);
        }}
        onKeyDown={(event) => {
          if (editing && event.key === 'Escape') cancelEditing();
        }}
      />
      {empty ? (
        <p className="field-error" role="alert">
          {VALIDATION_TEXTS.empty}
        </p>
      ) : null}
    </li>
  );
}
