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
} as const;

const countText = (count: number, one: string): string => `${count} ${count === 1 ? one : `${one}s`}`;

/** The records made while no video played. */
export const offVideoText = (count: number): string => `Not on the video: ${countText(count, 'record')}`;

export const clicksLeftOutText = (count: number): string =>
  `${countText(count, 'click')}, left out of the heatmap.`;
