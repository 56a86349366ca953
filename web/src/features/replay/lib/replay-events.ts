import type { Action, MessageRecord, PixelRecord, PlaybackEvent, PlaybackRecord, Prompt } from '@uis/proto';
import { formatSpan, formatVideoTime, isVideoTime } from './video-time';
import { COMMON_TEXTS, PLAYBACK_EVENT_TEXTS } from '../../../i18n/en/common';
import {
  byText,
  fromAtText,
  playerEventText,
  promptFiredText,
  promptForText,
  promptSetText,
  REPLAY_KIND_NAMES,
  REPLAY_TEXTS,
  seekText,
  speedText,
} from '../../../i18n/en/replay';

/**
 * A session's records on one clock, the video's: what the replay's timeline, list and heatmap show.
 * Pure functions of the records the API answers (messages, clicks, the playback log) and the
 * session's prompts and actions.
 */

/** What the kind filter offers, in the order its checkboxes and the timeline's lanes show them. */
export const REPLAY_KINDS = ['message', 'reaction', 'prompt', 'playback', 'click'] as const;
export type ReplayKind = (typeof REPLAY_KINDS)[number];
/** The kinds drawn as markers; clicks are drawn as the heatmap and a density strip instead. */
export type MarkerKind = Exclude<ReplayKind, 'click'>;

export const KIND_NAMES: Record<ReplayKind, string> = REPLAY_KIND_NAMES;

interface EventBase {
  /** Unique among a session's events (a record id with its kind). */
  id: string;
  /** Seconds into the video. */
  at: number;
  /** Whose it is: the author of a message or reaction, the researcher who played; null for a prompt as set. */
  who: string | null;
  /** What it says: the message, the action's name, the prompt's text; empty for play and pause. */
  text: string;
  /** When it happened by the server's clock (ISO 8601), or null for a prompt as set in the editor. */
  time: string | null;
}

export type ReplayEvent =
  | (EventBase & { kind: 'message' })
  | (EventBase & { kind: 'reaction'; action: Action | null })
  /** A prompt as the editor set it: shown from `at` for `duration` seconds. */
  | (EventBase & { kind: 'prompt'; source: 'set'; duration: number })
  /** A prompt the researcher's player fired (the playback log). */
  | (EventBase & { kind: 'prompt'; source: 'fired' })
  | (EventBase & { kind: 'playback'; event: Exclude<PlaybackEvent, 'prompt'>; rate: number });

/** A click on the video: where (fractions 0-1 of the video area), when and whose. */
export interface ReplayClick {
  id: string;
  at: number;
  x: number;
  y: number;
  who: string;
}

/** A message recorded when no video was playing (videoTime null): listed apart, off the timeline. */
export interface OffVideoMessage {
  id: string;
  kind: 'message' | 'reaction';
  who: string;
  text: string;
  time: string;
}

export interface ReplayRecords {
  messages: readonly MessageRecord[];
  pixels: readonly PixelRecord[];
  playback: readonly PlaybackRecord[];
  prompts: readonly Prompt[];
  actions: readonly Action[];
}

export interface ReplayData {
  /** Every event with a video time, in video order (compareEvents). */
  events: ReplayEvent[];
  /** Clicks with a video time, by video time. */
  clicks: ReplayClick[];
  /** Messages and reactions with no video time, oldest first. */
  offVideoMessages: OffVideoMessage[];
  /** Clicks with no video time (whose, for the person filter): counted, not drawn. */
  offVideoClicks: { id: string; who: string }[];
}

/**
 * Among events at the same video time and server time, this order (a prompt fired reads before the
 * pause it makes); a prompt as set, with no server time, comes before all of them.
 */
const KIND_ORDER: Record<MarkerKind, number> = { prompt: 0, playback: 1, message: 2, reaction: 3 };

/** Video order: by video time, then what happened first by the server's clock, then kind and id. */
export function compareEvents(a: ReplayEvent, b: ReplayEvent): number {
  if (a.at !== b.at) return a.at - b.at;
  if (a.time !== b.time) {
    if (a.time === null) return -1;
    if (b.time === null) return 1;
    return a.time < b.time ? -1 : 1;
  }
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The session's records as replay events, clicks and what was recorded off the video. */
export function replayData({ messages, pixels, playback, prompts, actions }: ReplayRecords): ReplayData {
  const actionById = new Map(actions.map((action) => [action.action_id, action]));
  const promptById = new Map(prompts.map((prompt) => [prompt.prompt_id, prompt]));
  const events: ReplayEvent[] = [];
  const offVideoMessages: OffVideoMessage[] = [];

  for (const message of messages) {
    const action = message.actionId ? (actionById.get(message.actionId) ?? null) : null;
    const reaction = message.actionId !== null;
    // A reaction reads as its action's name; one whose action was deleted keeps its sentence.
    const text = action ? action.name : message.message;
    const base = { id: `message:${message.message_id}`, who: message.name, text, time: message.time };
    if (!isVideoTime(message.videoTime)) {
      offVideoMessages.push({ ...base, kind: reaction ? 'reaction' : 'message' });
      continue;
    }
    events.push(
      reaction
        ? { ...base, kind: 'reaction', at: message.videoTime, action }
        : { ...base, kind: 'message', at: message.videoTime },
    );
  }

  for (const prompt of prompts) {
    events.push({
      id: `prompt:${prompt.prompt_id}`,
      kind: 'prompt',
      source: 'set',
      at: prompt.time,
      duration: prompt.duration,
      who: null,
      text: prompt.prompt,
      time: null,
    });
  }

  for (const entry of playback) {
    const base = {
      id: `playback:${entry.playback_id}`,
      at: entry.videoTime,
      who: entry.name,
      time: entry.time,
    };
    if (entry.event === 'prompt') {
      const prompt = entry.promptId ? promptById.get(entry.promptId) : undefined;
      events.push({
        ...base,
        kind: 'prompt',
        source: 'fired',
        text: prompt?.prompt ?? REPLAY_TEXTS.deletedPrompt,
      });
    } else {
      events.push({ ...base, kind: 'playback', event: entry.event, rate: entry.playbackRate, text: '' });
    }
  }

  const clicks: ReplayClick[] = [];
  const offVideoClicks: ReplayData['offVideoClicks'] = [];
  for (const pixel of pixels) {
    if (!isVideoTime(pixel.videoTime)) {
      offVideoClicks.push({ id: `click:${pixel.pixel_id}`, who: pixel.name });
      continue;
    }
    clicks.push({
      id: `click:${pixel.pixel_id}`,
      at: pixel.videoTime,
      x: pixel.x,
      y: pixel.y,
      who: pixel.name,
    });
  }

  return {
    events: events.sort(compareEvents),
    // Stable: clicks at one video time keep the server's order (oldest first).
    clicks: clicks.sort((a, b) => a.at - b.at),
    offVideoMessages,
    offVideoClicks,
  };
}

/** The event's short title: its kind, or for the playback log what the player did. */
export function eventTitle(event: ReplayEvent): string {
  switch (event.kind) {
    case 'message':
      return COMMON_TEXTS.message;
    case 'reaction':
      return COMMON_TEXTS.reaction;
    case 'prompt':
      return event.source === 'set' ? COMMON_TEXTS.prompt : REPLAY_TEXTS.promptFired;
    case 'playback':
      return event.event === 'rate' ? speedText(event.rate) : PLAYBACK_EVENT_TEXTS[event.event];
  }
}

/** An event's title in the event list, which has no other place for a set prompt's duration. */
export function eventListTitle(event: ReplayEvent): string {
  return event.kind === 'prompt' && event.source === 'set'
    ? promptForText(formatSpan(event.duration))
    : eventTitle(event);
}

/**
 * What a marker says to a screen reader and in its tooltip: kind, who, text and video time, e.g.
 * 'Message from Pat at 0:03: Hello' or 'Seek by Rhea to 0:25'.
 */
export function eventLabel(event: ReplayEvent): string {
  const at = formatVideoTime(event.at);
  const by = byText(event.who);
  switch (event.kind) {
    case 'message':
    case 'reaction':
      return fromAtText(eventTitle(event), event.who ?? REPLAY_TEXTS.someone, at, event.text);
    case 'prompt':
      return event.source === 'set'
        ? promptSetText(at, formatSpan(event.duration), event.text)
        : promptFiredText(by, at, event.text);
    case 'playback':
      return event.event === 'seek' ? seekText(by, at) : playerEventText(eventTitle(event), by, at);
  }
}
