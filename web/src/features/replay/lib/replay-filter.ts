import type { OffVideoMessage, ReplayClick, ReplayData, ReplayEvent, ReplayKind } from './replay-events';

/**
 * The replay's filters: one person (or everyone) and the kinds shown. The person filter narrows what
 * people did (messages, reactions, clicks); prompts and the playback log are what every participant
 * saw, so they stay whoever is chosen (the kind checkboxes hide them).
 */
export interface ReplayFilter {
  /** A name, or null for everyone. */
  who: string | null;
  kinds: ReadonlySet<ReplayKind>;
}

const PERSONAL: ReadonlySet<ReplayKind> = new Set(['message', 'reaction', 'click']);

const whoPasses = (filter: ReplayFilter, kind: ReplayKind, who: string | null) =>
  filter.who === null || !PERSONAL.has(kind) || who === filter.who;

export function filterEvents(events: readonly ReplayEvent[], filter: ReplayFilter): ReplayEvent[] {
  return events.filter((event) => filter.kinds.has(event.kind) && whoPasses(filter, event.kind, event.who));
}

/** Clicks keep their order (by video time), so a window of them is still found by bisection. */
export function filterClicks(clicks: readonly ReplayClick[], filter: ReplayFilter): readonly ReplayClick[] {
  if (!filter.kinds.has('click')) return [];
  return filter.who === null ? clicks : clicks.filter((click) => click.who === filter.who);
}

/** What was recorded with no video time, through the same filters. */
export function filterOffVideo(
  { offVideoMessages, offVideoClicks }: Pick<ReplayData, 'offVideoMessages' | 'offVideoClicks'>,
  filter: ReplayFilter,
): { messages: OffVideoMessage[]; clicks: number } {
  return {
    messages: offVideoMessages.filter(
      (message) => filter.kinds.has(message.kind) && whoPasses(filter, message.kind, message.who),
    ),
    clicks: offVideoClicks.filter(
      (click) => filter.kinds.has('click') && whoPasses(filter, 'click', click.who),
    ).length,
  };
}

/** The names the person filter offers: everyone who wrote, reacted or clicked, alphabetically. */
export function peopleOf(
  events: readonly Pick<ReplayEvent, 'kind' | 'who'>[],
  clicks: readonly Pick<ReplayClick, 'who'>[],
  offVideo: readonly { who: string }[] = [],
): string[] {
  const names = new Set<string>();
  for (const event of events) if (PERSONAL.has(event.kind) && event.who) names.add(event.who);
  for (const { who } of [...clicks, ...offVideo]) names.add(who);
  return [...names].sort((a, b) => a.localeCompare(b));
}
