import { UI_TEXTS } from '@uis/proto/browser';
import { useMemo, useSyncExternalStore } from 'react';
import { useApiAllPages } from '../../../api/queries';
import { ShowMoreButton, useShownItems } from '../../../components/ui/show-more';
import { messageDeletes } from '../lib/message-deletes';
import { RECORD_PAGE_SIZE } from '../lib/record-tabs';
import { MessageRow } from './message-row';
import { COMMON_TEXTS } from '../../../i18n/en/common';

export function MessagesTab({ sessionId }: { sessionId: string }) {
  const messages = useApiAllPages(
    'getMessages',
    { sessionId },
    { errorText: UI_TEXTS.errorFetchingMessages },
  );
  // Messages whose deletion is held for its Undo, or on its way, are gone as far as the researcher sees.
  const hidden = useSyncExternalStore(messageDeletes.subscribe, messageDeletes.hidden);
  const all = messages.data?.messages;
  const list = useMemo(() => (all ?? []).filter((message) => !hidden.has(message.message_id)), [all, hidden]);
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
