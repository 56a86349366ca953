import type { MessageRecord } from '@uis/proto';
import { chatTime, chatTimeTitle } from '../lib/chat-time';

/**
 * One chat message: its author and time, then its text. Names and texts are shown as text (never as
 * markup), each isolated in its own direction, so a right-to-left name cannot reorder what is around it.
 */
export function ChatMessage({ message }: { message: MessageRecord }) {
  return (
    <li className="live-chat-message">
      <p className="live-chat-meta">
        <bdi className="live-chat-author" dir="auto">
          {message.name}
        </bdi>{' '}
        <time dateTime={message.time} title={chatTimeTitle(message.time)}>
          {chatTime(message.time)}
        </time>
      </p>
      <p className="live-chat-text" dir="auto">
        {message.message}
      </p>
    </li>
  );
}
