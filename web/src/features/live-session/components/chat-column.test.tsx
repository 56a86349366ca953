import { UI_TEXTS } from '@uis/proto/browser';
import type { MessageRecord } from '@uis/proto';
import type { SendOutcome } from '@uis/live-client';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChatColumn, type ChatColumnProps } from './chat-column';
import { LIVE_CONTROL_TEXTS } from '../../../i18n/en/live-session';

/** Each message is this tall, and the list shows this much: jsdom does no layout, so the test does. */
const ROW_PX = 50;
const VIEW_PX = 300;

const message = (n: number, text = `message ${n}`, name = 'Ann'): MessageRecord => ({
  message_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  seq: String(n),
  message: text,
  name,
  time: new Date(Date.UTC(2025, 0, 1, 10, 0, n)).toISOString(),
  videoTime: null,
  actionId: null,
});
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

// Scrolling as a browser lays the list out: its height follows the rows, scrollTop stays in range.
const scrollTops = new WeakMap<Element, number>();
const isList = (element: Element) => element.classList.contains('live-chat-list');
const heightOf = (element: Element) => element.querySelectorAll('li').length * ROW_PX;
const saved: Array<[string, PropertyDescriptor | undefined]> = [];
beforeAll(() => {
  const define = (name: string, descriptor: PropertyDescriptor) => {
    saved.push([name, Object.getOwnPropertyDescriptor(Element.prototype, name)]);
    Object.defineProperty(Element.prototype, name, { configurable: true, ...descriptor });
  };
  define('scrollHeight', {
    get(this: Element) {
      return isList(this) ? Math.max(heightOf(this), VIEW_PX) : 0;
    },
  });
  define('clientHeight', {
    get(this: Element) {
      return isList(this) ? VIEW_PX : 0;
    },
  });
  define('scrollTop', {
    get(this: Element) {
      return scrollTops.get(this) ?? 0;
    },
    set(this: Element, value: number) {
      const max = Math.max(0, this.scrollHeight - this.clientHeight);
      scrollTops.set(this, Math.min(max, Math.max(0, value)));
    },
  });
});
afterAll(() => {
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(Element.prototype, name, descriptor);
    else Reflect.deleteProperty(Element.prototype, name);
  }
});

function setup(props: Partial<ChatColumnProps> = {}) {
  const onSend = vi.fn<(text: string) => Promise<SendOutcome>>(() =>
    Promise.resolve({ kind: 'acknowledged', message: message(999) }),
  );
  const onLoadOlder = vi.fn(() => Promise.resolve());
  const all: ChatColumnProps = {
    messages: range(1, 20),
    hasOlder: false,
    listFailed: false,
    loading: false,
    canSend: true,
    onSend,
    onLoadOlder,
    ...props,
  };
  const view = render(<ChatColumn {...all} />);
  const list = screen.getByRole('log', { name: 'Chat messages' });
  const box = screen.getByRole('textbox', { name: 'Message' });
  const rerender = (change: Partial<ChatColumnProps>) => {
    Object.assign(all, change);
    view.rerender(<ChatColumn {...all} />);
  };
  /** The reader scrolls the list to `top`. */
  const scrollTo = (top: number) => {
    list.scrollTop = top;
    fireEvent.scroll(list);
  };
  return { list, box, onSend, onLoadOlder, rerender, scrollTo };
}

const bottomOf = (list: HTMLElement) => list.scrollHeight - list.clientHeight;

describe('chat column', () => {
  it('opens at the newest message and follows new ones while the reader is at the bottom', () => {
    const { list, rerender } = setup();
    expect(list.scrollTop).toBe(bottomOf(list));
    rerender({ messages: range(1, 21) });
    expect(list.scrollTop).toBe(bottomOf(list));
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
  });

  it("leaves a reader who scrolled up where they are, and 'New messages' brings them down", () => {
    const { list, rerender, scrollTo } = setup();
    scrollTo(200);
    rerender({ messages: range(1, 22) });
    expect(list.scrollTop).toBe(200);
    const button = screen.getByRole('button', { name: 'New messages' });
    fireEvent.click(button);
    expect(list.scrollTop).toBe(bottomOf(list));
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
    // Following again: the next message is scrolled to.
    rerender({ messages: range(1, 23) });
    expect(list.scrollTop).toBe(bottomOf(list));
  });

  it('hides New messages once the reader scrolls down by themselves', () => {
    const { list, rerender, scrollTo } = setup();
    scrollTo(100);
    rerender({ messages: range(1, 21) });
    expect(screen.getByRole('button', { name: 'New messages' })).toBeTruthy();
    scrollTo(bottomOf(list));
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
  });

  it('loads older messages at the top and keeps what the reader sees in place', async () => {
    const { list, rerender, scrollTo, onLoadOlder } = setup({ messages: range(11, 30), hasOlder: true });
    scrollTo(0);
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
    // While a page is loading, scrolling at the top does not ask again.
    scrollTo(10);
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
    await act(() => Promise.resolve());
    rerender({ messages: range(1, 30), hasOlder: false });
    // Ten rows arrived above: the view moved down by their height, so the same rows show.
    expect(list.scrollTop).toBe(10 + 10 * ROW_PX);
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
  });

  it('offers a button for older messages, for the keyboard', () => {
    const { onLoadOlder } = setup({ hasOlder: true });
    fireEvent.click(screen.getByRole('button', { name: 'Load older messages' }));
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
  });

  it('sends on Enter and clears the box; Shift+Enter does not send (a new line)', async () => {
    const { box, onSend } = setup();
    fireEvent.change(box, { target: { value: 'first line' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: 'first line\nsecond line' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await act(() => Promise.resolve());
    expect(onSend).toHaveBeenCalledWith('first line\nsecond line');
    expect(box).toHaveProperty('value', '');
  });

  it('sends with the send button, never a blank message, and nothing while composing (IME)', async () => {
    const { box, onSend } = setup();
    const send = screen.getByRole('button', { name: LIVE_CONTROL_TEXTS.sendMessage });
    fireEvent.change(box, { target: { value: '   ' } });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.change(box, { target: { value: 'こんにちは' } });
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(send);
    await act(() => Promise.resolve());
    expect(onSend).toHaveBeenCalledWith('こんにちは');
  });

  it("scrolls to the author's own message even when they had scrolled up", async () => {
    const { list, box, rerender, scrollTo } = setup();
    scrollTo(0);
    fireEvent.change(box, { target: { value: 'mine' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await act(() => Promise.resolve());
    rerender({ messages: [...range(1, 20), message(21, 'mine')] });
    expect(list.scrollTop).toBe(bottomOf(list));
  });

  it('says why a message was refused and gives the text back; waits while not connected', async () => {
    const { box, onSend, rerender } = setup();
    onSend.mockResolvedValueOnce({
      kind: 'refused',
      message: 'You are sending too fast.',
      code: 'RATE_LIMITED',
    });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await act(() => Promise.resolve());
    expect(screen.getByRole('alert').textContent).toBe(
      'Your message was not sent: You are sending too fast.',
    );
    expect(box).toHaveProperty('value', 'hello');

    rerender({ canSend: false });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: LIVE_CONTROL_TEXTS.sendMessage })).toHaveProperty(
      'disabled',
      true,
    );
    expect(box).toHaveProperty('value', 'hello');
  });

  it("shows 'Error fetching chat messages' when the list came back as the error marker", () => {
    setup({ messages: [], listFailed: true });
    expect(screen.getByText(UI_TEXTS.errorFetchingChatMessages)).toBeTruthy();
  });

  it('shows each author and time, and names and texts as text, isolated in their own direction', () => {
    setup({
      messages: [message(1, '<b>not bold</b>', 'אבי <img src=x>'), message(2, 'مرحبا', 'Ann')],
    });
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first] = items;
    expect(first?.querySelector('b, img')).toBeNull();
    expect(first?.querySelector('bdi')?.textContent).toBe('אבי <img src=x>');
    expect(first?.querySelector('bdi')?.getAttribute('dir')).toBe('auto');
    expect(first?.querySelector('.live-chat-text')?.textContent).toBe('<b>not bold</b>');
    expect(first?.querySelector('.live-chat-text')?.getAttribute('dir')).toBe('auto');
    expect(first?.querySelector('time')?.getAttribute('datetime')).toBe(message(1).time);
  });
});
