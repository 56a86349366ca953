import { UI_TEXTS } from '@uis/proto/browser';
import { useApiAllPages } from '../../../api/queries';
import { ShowMoreButton, useShownItems } from '../../../components/ui/show-more';
import { RECORD_PAGE_SIZE } from '../lib/record-tabs';
import { MessageRow } from './message-row';
import { COMMON_TEXTS } from '../../../i18n/en/common';

export function MessagesTab({ sessionId }: { sessionId: string }) {
  const messages = useApiAllPages(
    'getMessages',
    { sessionId },
    { errorText: UI_TEXTS.errorFetchingMessages },
  );
  const list = messages.data?.messages ?? [];
  const shown = useShownItems(list, RECORD_PAGE_SIZE);
  if (list.length === 0)
    return (
      <p className="record-empty">
        {messages.isLoading ? COMMON_TEXTS.loadingMessages : COMMON_TEXTS.noMessages}
      </p>
    );
  return (
    <>
      <ul className="record-messages">
        {shown.visible.map((message) => (
          <MessageRow key={message.message_id} message={message} />
        ))}
      </ul>
      <ShowMoreButton hidden={shown.hidden} onClick={shown.showMore} />
    </>
  );
}
