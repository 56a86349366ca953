/** '1 message', '3 clicks': a count with its noun. */
export const countText = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** What a withdrawal deleted, in words: '2 messages and 1 click'. */
export const deletedText = ({ messages, clicks }: { messages: number; clicks: number }): string =>
  `${countText(messages, 'message')} and ${countText(clicks, 'click')}`;
