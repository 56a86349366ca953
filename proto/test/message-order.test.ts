import { LiveMessageList, compareMessages, mergeMessage, orderMessages } from '../src/message-order';

const at = (second: number, id: string) => ({
  message_id: id,
  time: `2025-01-02T03:04:${String(second).padStart(2, '0')}.000Z`,
});

describe('the live chat order', () => {
  it('orders by time, then by id for messages stored within the same millisecond', () => {
    const list = [at(5, 'b'), at(1, 'z'), at(5, 'a')];
    expect(orderMessages(list)).toEqual([at(1, 'z'), at(5, 'a'), at(5, 'b')]);
    expect(list[0]).toEqual(at(5, 'b')); // a copy, the input stays
    expect(compareMessages(at(1, 'a'), at(1, 'a'))).toBe(0);
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
