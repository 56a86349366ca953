import { UI_TEXTS } from '@uis/proto/browser';
import type { MessageRecord } from '@uis/proto';
import { useEffect, useState } from 'react';
import { useApiMutation } from '../../../api/queries';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { IconButton } from '../../../components/ui/icon-button';
import { UNDO_MS, undoableToast } from '../../../components/ui/undoable-toast';
import { useInlineEdit } from '../../../components/ui/use-inline-edit';
import { messageDeletes } from '../lib/message-deletes';
import { RecordTime } from './record-time';
import { VideoTime } from './video-time';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { deleteMessageWarningText, messageFromText, RECORD_PANEL_TEXTS } from '../../../i18n/en/records';

/**
 * A chat message in the record panel (spec sections 2 and 4): read-only until the edit icon is
 * clicked, then saved after a DEBOUNCE_MS pause, which ends edit mode. A failed save refetches.
 * Delete asks first, then hides the message with an Undo toast and sends the deletion UNDO_MS later.
 */
export function MessageRow({ message }: { message: MessageRecord }) {
  const editMessage = useApiMutation('editMessage', {
    errorText: UI_TEXTS.errorEditingMessage,
    invalidates: ['getMessages'],
  });
  const deleteMessage = useApiMutation('deleteMessage', {
    errorText: UI_TEXTS.errorDeletingMessage,
    invalidates: ['getMessages'],
  });
  /** The text on its way to the server: shown until the refetch after the save brings the stored one. */
  const [sending, setSending] = useState<string | null>(null);
  useEffect(() => setSending(null), [message.message]);
  const stored = sending ?? message.message;
  const edit = useInlineEdit(
    stored,
    (text) => {
      setSending(text);
      editMessage.mutate(
        { messageId: message.message_id, message: text },
        { onError: () => setSending(null) },
      );
    },
    'text',
  );
  const errorId = `message-error-${message.message_id}`;
  const [confirming, setConfirming] = useState(false);

  const deleteConfirmed = () => {
    setConfirming(false);
    // The row goes at once, and the focus with it: it moves to the next message's delete icon (else
    // the previous one's), so a keyboard can go on deleting.
    const row = edit.containerRef.current;
    const neighbour = (row?.nextElementSibling ?? row?.previousElementSibling)?.querySelector<HTMLElement>(
      '.record-message-delete',
    );
    if (neighbour) setTimeout(() => neighbour.focus(), 0);
    const messageId = message.message_id;
    const closeToast = undoableToast.show(RECORD_PANEL_TEXTS.messageDeleted, {
      undoLabel: RECORD_PANEL_TEXTS.undo,
      durationMs: UNDO_MS,
      onUndo: () => {
        messageDeletes.undo(messageId);
        closeToast();
      },
      onClose: () => void messageDeletes.sendNow(messageId),
    });
    messageDeletes.hold(messageId, () => {
      closeToast();
      return deleteMessage.mutateAsync({ messageId });
    });
  };

  return (
    <li ref={edit.containerRef} className={`record-message${edit.editing ? ' editing' : ''}`}>
      <div className="record-meta">
        <span className="record-who">{message.name}</span>
        <RecordTime iso={message.time} className="record-time" />
        {/* A message typed outside a playing video (a chat session, over REST) has no video time to show. */}
        {message.videoTime === null ? null : <VideoTime seconds={message.videoTime} />}
        {message.actionId ? <span className="record-badge">{COMMON_TEXTS.reaction}</span> : null}
        <span className="record-row-icons">
          <IconButton
            icon={edit.editing ? 'check' : 'edit'}
            label={edit.editing ? RECORD_PANEL_TEXTS.saveMessage : RECORD_PANEL_TEXTS.editMessage}
            aria-pressed={edit.editing}
            onClick={edit.editing ? edit.finish : edit.start}
          />
          <IconButton
            icon="delete"
            label={RECORD_PANEL_TEXTS.deleteMessage}
            className="record-message-delete"
            onClick={() => {
              edit.cancel();
              setConfirming(true);
            }}
          />
        </span>
      </div>
      <textarea
        className="record-message-text"
        aria-label={messageFromText(message.name)}
        readOnly={!edit.editing}
        rows={1}
        {...edit.inputProps}
        value={edit.editing ? edit.inputProps.value : stored}
        aria-invalid={edit.error ? true : undefined}
        aria-describedby={edit.error ? errorId : undefined}
      />
      {edit.error ? (
        <p id={errorId} className="field-error" role="alert">
          {edit.error}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={RECORD_PANEL_TEXTS.deleteMessageHeading}
          message={deleteMessageWarningText(message.name, stored, UNDO_MS / 1000)}
          confirmLabel={RECORD_PANEL_TEXTS.deleteMessage}
          onConfirm={deleteConfirmed}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </li>
  );
}
