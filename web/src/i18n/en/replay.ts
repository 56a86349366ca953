const countText = (count: number, one: string): string => `${count} ${count === 1 ? one : `${one}s`}`;

/** The replay's own English texts (the edit-session route's chunks carry this module). */
export const REPLAY_TEXTS = {
  replay: 'Replay',
  loadingReplay: 'Loading the replay…',
  showReplay: 'Show the replay',
  events: 'Events',
  loadingRecords: 'Loading records…',
  noEvents: 'No events on the video.',
  offVideoWhy: 'Recorded while no video was playing, so not on the timeline.',
  participant: 'Participant',
  everyone: 'Everyone',
  /** The record kinds to show. */
  show: 'Show',
  heatmapWindow: 'Heatmap window',
  clicksHidden: 'Clicks are hidden',
  videoPosition: 'Video position',
  replayVideo: 'Replay video',
  deletedPrompt: 'A deleted prompt',
  promptFired: 'Prompt fired',
  /** Who wrote a message whose writer is not known. */
  someone: 'someone',
  wholeVideo: 'Whole video',
  playbackLogNotLoaded: 'The playback log could not be loaded.',
} as const;

/** The timeline's lanes. */
export const REPLAY_KIND_NAMES = {
  message: 'Messages',
  reaction: 'Reactions',
  prompt: 'Prompts',
  playback: 'Playback',
  click: 'Clicks',
} as const;

export const speedText = (rate: number): string => `Speed ${rate}×`;

/** A marker's label for screen readers and its tooltip ('Message from Pat at 0:03: Hello'). */
export const fromAtText = (title: string, who: string, at: string, text: string): string =>
  `${title} from ${who} at ${at}: ${text}`;
/** A set prompt's title in the event list, with how long it pauses the video. */
export const promptForText = (duration: string): string => `Prompt for ${duration}`;
export const promptSetText = (at: string, duration: string, text: string): string =>
  `Prompt at ${at} for ${duration}: ${text}`;
/** `by` is ' by Rhea', or empty when nobody is named. */
export const byText = (who: string | null | undefined): string => (who ? ` by ${who}` : '');
export const promptFiredText = (by: string, at: string, text: string): string =>
  `Prompt fired${by} at ${at}: ${text}`;
export const seekText = (by: string, at: string): string => `Seek${by} to ${at}`;
export const playerEventText = (title: string, by: string, at: string): string => `${title}${by} at ${at}`;

/** The heatmap's caption: over the whole video, or over a window (from and to as video times). */
export const heatmapText = (clicks: number, window: { from: string; to: string } | null): string =>
  window === null
    ? `Heatmap of ${countText(clicks, 'click')} over the whole video`
    : `Heatmap of ${countText(clicks, 'click')} from ${window.from} to ${window.to}`;

export const clicksOverVideoText = (count: number): string => `Clicks over the video: ${count}`;

/** A lane's name for screen readers: 'Messages: 4 on the video'. */
export const laneText = (name: string, count: number): string => `${name}: ${count} on the video`;

/** The records made while no video played. */
export const offVideoText = (count: number): string => `Not on the video: ${countText(count, 'record')}`;

export const clicksLeftOutText = (count: number): string =>
  `${countText(count, 'click')}, left out of the heatmap.`;

/** The timeline's position for screen readers: '0:25 of 1:30'. */
export const timeOfText = (time: string, end: string): string => `${time} of ${end}`;
