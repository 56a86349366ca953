import type { AnswerOf, RequestOf, RouteName } from '@uis/proto';
import { call } from './client';

/** The routes that answer a session's records a page at a time: `after` in, `next` out (proto's RECORD_LIST_PAGING). */
export type PagedRoute = {
  [N in RouteName]: AnswerOf<N> extends { next: string | null } ? N : never;
}[RouteName];

/** The pages as one answer: each list of the first page with the others' after it, `next` null. */
function joined<N extends PagedRoute>(pages: readonly AnswerOf<N>[]): AnswerOf<N> {
  const fields = (page: AnswerOf<N>) => page as Record<string, unknown>;
  const lists = Object.keys(fields(pages[0]!)).filter((key) => Array.isArray(fields(pages[0]!)[key]));
  const whole = Object.fromEntries(
    lists.map((key) => [key, pages.flatMap((page) => fields(page)[key] as unknown[])]),
  );
  return { ...pages[0]!, ...whole, next: null };
}

/**
 * Every page of a paged list, one request after the other (each goes on after the last record of the
 * one before), as one answer: what the route answered before it paged.
 */
export async function callAllPages<N extends PagedRoute>(
  name: N,
  input: RequestOf<N>,
  signal?: AbortSignal,
): Promise<AnswerOf<N>> {
  const pages = [await call(name, input, signal)];
  // No `next` at all: a server from before paging, which answered every record at once.
  let next = pages[0]!.next ?? null;
  while (next !== null) {
    const page = await call(name, { ...input, after: next }, signal);
    pages.push(page);
    next = page.next ?? null;
  }
  return joined(pages);
}
