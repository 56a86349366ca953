import type { Prompt } from '@uis/proto';

/**
 * Prompts are keyed by their start second (spec section 3; the server refuses a second prompt at the
 * same second). A new prompt goes to the first free second from the start, so "add" never collides.
 */
export function firstFreeSecond(prompts: readonly Pick<Prompt, 'time'>[]): number {
  const taken = new Set(prompts.map((prompt) => Math.floor(prompt.time)));
  let second = 0;
  while (taken.has(second)) second += 1;
  return second;
}
