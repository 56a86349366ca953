import { LiveMessageList, compareMessages, mergeMessage, orderMessages } from '../src/message-order';

/** A message stored `seq`-th in its session. */
const at = (seq: number, id: string) => ({ message_id: id, seq: String(seq) });

describe('the chat order', () => {
  it("is records' insertion sequence, as numbers (9 before 10), whatever the ids", () => {
    const list = [at(10, 'a'), at(9, 'z'), at(100, 'b')];
    expect(orderMessages(list)).toEqual([at(9, 'z'), at(10, 'a'), at(100, 'b')]);
    expect(list[0]).toEqual(at(10, 'a')); // a copy, the input stays
    expect(compareMessages(at(1, 'a'), at(1, 'a'))).toBe(0);
    // A bigint past what a number holds exactly still compares exactly.
    const big = (seq: string, id: string) => ({ message_id: id, seq });
    expect(compareMessages(big('90071992547409931', 'b'), big('90071992547409930', 'a'))).toBeGreaterThan(0);
  });

  it('puts a message in its place, once, however late or often it comes', () => {
    let list = [at(1, 'a'), at(3, 'c')];
    list = mergeMessage(list, at(2, 'b'));
    list = mergeMessage(list, at(4, 'd'));
    list = mergeMessage(list, at(2, 'b'));
    expect(list).toEqual([at(1, 'a'), at(2, 'b'), at(3, 'c'), at(4, 'd')]);
  });
});

describe('LiveMessageList', () => {
  it('keeps a message that arrived while the list was on its way, and not in it', () => {
    const chat = new LiveMessageList<ReturnType<typeof at>>();
    chat.receivedAdded(at(1, 'old')); // before the request: the list decides
    chat.requested();
    chat.receivedAdded(at(9, 'new')); // stored after the server read the list
    chat.receivedList([at(2, 'x'), at(3, 'y')]);
    expect(chat.messages).toEqual([at(2, 'x'), at(3, 'y'), at(9, 'new')]);

    chat.receivedAdded(at(10, 'later'));
    chat.requested();
    chat.receivedList([at(2, 'x'), at(3, 'y'), at(9, 'new')]);
    expect(chat.messages).toEqual([at(2, 'x'), at(3, 'y'), at(9, 'new')]); // no request was open for 'later'
  });

  it('keeps its copy on the error marker, and forgets open requests when the connection drops', () => {
    const chat = new LiveMessageList<ReturnType<typeof at>>();
    chat.requested();
    chat.receivedList([at(1, 'a')]);
    chat.requested();
    chat.receivedList(undefined);
    expect(chat.messages).toEqual([at(1, 'a')]);

    chat.requested();
    chat.disconnected();
    chat.receivedAdded(at(2, 'b'));
    chat.requested();
    chat.receivedList([at(1, 'a')]);
    expect(chat.messages).toEqual([at(1, 'a')]);
  });
});

describe('LiveMessageList with pages', () => {
  type M = ReturnType<typeof at>;
  const page = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => at(from + i, `m${String(from + i).padStart(2, '0')}`));

  it('knows older messages may exist when a list fills a page, and adds history pages before it', () => {
    const chat = new LiveMessageList<M>(3);
    chat.requested();
    chat.receivedList(page(7, 9));
    expect(chat.hasOlder).toBe(true);
    expect(chat.oldest).toEqual(at(7, 'm07'));
    expect(chat.gapBefore).toBeUndefined();
    chat.receivedOlder(page(4, 6), true);
    chat.receivedOlder(page(1, 3), false);
    expect(chat.messages).toEqual(page(1, 9));
    expect(chat.hasOlder).toBe(false);
  });

  it('keeps the pages fetched earlier when a resync brings the newest page again', () => {
    const chat = new LiveMessageList<M>(3);
    chat.requested();
    chat.receivedList(page(4, 6));
    chat.receivedOlder(page(1, 3), false);
    chat.requested();
    chat.receivedList(page(5, 7)); // one new message while away
    expect(chat.messages).toEqual(page(1, 7));
    expect(chat.gapBefore).toBeUndefined();
  });

  it('marks the gap when more than a page was written while it was away, and closes it with history', () => {
    const chat = new LiveMessageList<M>(3);
    chat.requested();
    chat.receivedList(page(1, 3));
    chat.disconnected();
    chat.requested();
    chat.receivedList(page(10, 12)); // 4 to 9 happened while away
    expect(chat.gapBefore).toEqual(at(10, 'm10'));
    chat.receivedOlder(page(7, 9), true);
    expect(chat.gapBefore).toEqual(at(7, 'm07'));
    chat.receivedOlder(page(4, 6), true);
    expect(chat.gapBefore).toEqual(at(4, 'm04'));
    chat.receivedOlder(page(1, 3), false); // reaches what it had
    expect(chat.gapBefore).toBeUndefined();
    expect(chat.messages).toEqual(page(1, 12));
  });

  it('keeps a message the page leaves out even when it sorts inside the page (the server pages in storing order)', () => {
    // 'z03' was stored before 'm04' and so falls just outside the newest page, but it sorts after
    // 'm04' (rows of one INSERT share a time and sort by id here; concurrent appends may store an
    // older time after a newer one).
    const late = at(4, 'z03'); // the same time as 'm04', an id that sorts after it
    const chat = new LiveMessageList<M>(3);
    chat.requested();
    chat.receivedList([at(1, 'm01'), at(2, 'm02'), late]);
    chat.receivedAdded(at(4, 'm04'));
    chat.receivedAdded(at(5, 'm05'));
    chat.disconnected();
    chat.requested();
    chat.receivedList([at(4, 'm04'), at(5, 'm05'), at(6, 'm06')]);
    expect(chat.messages).toEqual([
      at(1, 'm01'),
      at(2, 'm02'),
      at(4, 'm04'),
      late,
      at(5, 'm05'),
      at(6, 'm06'),
    ]);
    expect(chat.gapBefore).toBeUndefined();
  });

  it('has no gap and no older messages when the list is not a full page', () => {
    const chat = new LiveMessageList<M>(3);
    chat.requested();
    chat.receivedList(page(1, 2));
    expect([chat.hasOlder, chat.gapBefore]).toEqual([false, undefined]);
  });
});
