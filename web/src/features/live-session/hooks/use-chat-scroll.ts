import type { MessageRecord } from '@uis/proto';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';

/** Within this many pixels of the bottom the reader counts as following the newest messages. */
export const NEAR_BOTTOM_PX = 32;
/** Within this many pixels of the top, older messages are loaded. */
export const NEAR_TOP_PX = 48;

/**
 * The chat list's scrolling: it follows new messages while the reader is at the bottom; a reader who
 * scrolled up stays where they are and is told ('New messages', `unseen`); older messages loaded at
 * the top keep what the reader sees in place; reaching the top loads the next older page.
 */
export function useChatScroll(
  messages: readonly MessageRecord[],
  hasOlder: boolean,
  onLoadOlder: () => Promise<void>,
) {
  const listRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const followOnce = useRef(false);
  const seen = useRef<{ first?: string; last?: string; height: number }>({ height: 0 });
  const loading = useRef(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [unseen, setUnseen] = useState(false);

  const toBottom = useCallback(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
    following.current = true;
    setUnseen(false);
  }, []);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const first = messages[0]?.message_id;
    const last = messages.at(-1)?.message_id;
    const before = seen.current;
    if (before.first !== undefined && first !== before.first && last === before.last) {
      // A page of older messages above: what the reader was looking at stays where it was.
      list.scrollTop += list.scrollHeight - before.height;
    } else if (last !== before.last) {
      if (following.current || followOnce.current) toBottom();
      else setUnseen(true);
      followOnce.current = false;
    }
    seen.current = { first, last, height: list.scrollHeight };
  }, [messages, toBottom]);

  const loadOlder = useCallback(() => {
    if (loading.current || !hasOlder) return;
    loading.current = true;
    setLoadingOlder(true);
    onLoadOlder()
      .catch(() => undefined)
      .finally(() => {
        loading.current = false;
        setLoadingOlder(false);
      });
  }, [hasOlder, onLoadOlder]);

  const onScroll = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    following.current = list.scrollHeight - list.scrollTop - list.clientHeight <= NEAR_BOTTOM_PX;
    if (following.current) setUnseen(false);
    if (list.scrollTop <= NEAR_TOP_PX) loadOlder();
  }, [loadOlder]);

  return {
    listRef,
    onScroll,
    unseen,
    loadingOlder,
    loadOlder,
    /** Brings the newest messages into view ('New messages'). */
    toNewest: toBottom,
    /** The next new message is scrolled to whatever the reader's place (their own). */
    followNext: () => {
      followOnce.current = true;
    },
  };
}
