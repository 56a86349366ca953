import { CHAT_MESSAGE_MAX_CHARS, UI_TEXTS } from '@uis/proto/browser';
import type { MessageRecord } from '@uis/proto';
import type { SendOutcome } from '@uis/live-client';
import { useId, useState, type KeyboardEvent } from 'react';
import { IconButton } from '../../../components/ui/icon-button';
import { useChatScroll } from '../hooks/use-chat-scroll';
import { ChatMessage } from './chat-message';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import {
  LIVE_CONTROL_TEXTS,
  LIVE_SESSION_TEXTS,
  MESSAGE_UNANSWERED_TEXT,
  messageNotSentText,
} from '../../../i18n/en/live-session';

export interface ChatColumnProps {
  messages: readonly MessageRecord[];
  /** Older messages exist on the server. */
  hasOlder: boolean;
  /** The list came back as the error marker. */
  listFailed: boolean;
  /** No list has arrived yet. */
  loading: boolean;
  /** Connected: messages can go now (while reconnecting the draft waits). */
  canSend: boolean;
  onSend: (text: string) => Promise<SendOutcome>;
  onLoadOlder: () => Promise<void>;
}

/** What a message that did not go through says, under the box. */
export function sendProblemText(outcome: SendOutcome): string | null {
  if (outcome.kind === 'refused') return messageNotSentText(outcome.message);
  if (outcome.kind === 'unanswered') {
    return `${COMMON_TEXTS.serverTimeout} ${MESSAGE_UNANSWERED_TEXT}`;
  }
  return null;
}

/**
 * The live chat (spec section 2): the message list, newest at the bottom and followed as messages
 * come unless the reader scrolled up (then 'New messages' brings them down), older pages loaded at
 * the top, and the box: Enter sends, Shift+Enter starts a new line.
 */
export function ChatColumn({
  messages,
  hasOlder,
  listFailed,
  loading,
  canSend,
  onSend,
  onLoadOlder,
}: ChatColumnProps) {
  const scroll = useChatScroll(messages, hasOlder, onLoadOlder);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const boxId = useId();
  const problemId = useId();

  const submit = async () => {
    const text = draft;
    if (!canSend || text.trim() === '') return;
    setDraft('');
    setProblem(null);
    // The author sees their own message arrive, wherever they had scrolled.
    scroll.followNext();
    const outcome = await onSend(text);
    setProblem(sendProblemText(outcome));
    // A refused message is given back to edit; an unanswered one may have been stored.
    if (outcome.kind === 'refused') setDraft((current) => (current === '' ? text : current));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <section className="live-chat" aria-labelledby="live-chat-heading">
      <h2 id="live-chat-heading" className="live-chat-heading">
        {LIVE_SESSION_TEXTS.chat}
      </h2>
      <div className="live-chat-list-wrap">
        <div
          ref={scroll.listRef}
          className="live-chat-list"
          role="log"
          aria-label={LIVE_SESSION_TEXTS.chatMessages}
          aria-busy={loading}
          // Focusable, so the list can be scrolled with the keyboard.
          tabIndex={0}
          onScroll={scroll.onScroll}
        >
          {hasOlder ? (
            <button
              type="button"
              className="live-chat-older"
              onClick={scroll.loadOlder}
              disabled={scroll.loadingOlder}
            >
              {scroll.loadingOlder
                ? LIVE_SESSION_TEXTS.loadingOlderMessages
                : LIVE_SESSION_TEXTS.loadOlderMessages}
            </button>
          ) : null}
          {listFailed ? (
            <p className="live-chat-empty error">{UI_TEXTS.errorFetchingChatMessages}</p>
          ) : messages.length === 0 ? (
            <p className="live-chat-empty">
              {loading ? COMMON_TEXTS.loadingMessages : COMMON_TEXTS.noMessages}
            </p>
          ) : null}
          <ol className="live-chat-messages">
            {messages.map((message) => (
              <ChatMessage key={message.message_id} message={message} />
            ))}
          </ol>
        </div>
        {scroll.unseen ? (
          <button type="button" className="live-chat-new" onClick={scroll.toNewest}>
            {LIVE_SESSION_TEXTS.newMessages}
          </button>
        ) : null}
      </div>
      <form
        className="live-chat-composer"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor={boxId} className="visually-hidden">
          {LIVE_SESSION_TEXTS.message}
        </label>
        <textarea
          id={boxId}
          className="text-input live-chat-box"
          dir="auto"
          rows={2}
          maxLength={CHAT_MESSAGE_MAX_CHARS}
          placeholder={LIVE_SESSION_TEXTS.writeMessage}
          aria-describedby={problem ? problemId : undefined}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <IconButton
          type="submit"
          icon="send"
          label={LIVE_CONTROL_TEXTS.sendMessage}
          className="live-chat-send"
          disabled={!canSend || draft.trim() === ''}
        />
      </form>
      {problem ? (
        <p id={problemId} className="field-error live-chat-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
