/** The record panel's own English texts (the edit-session route's chunk carries this module). */
export const RECORD_TABLE_TEXTS = {
  time: 'Time',
  who: 'Who',
  video: 'Video',
} as const;
