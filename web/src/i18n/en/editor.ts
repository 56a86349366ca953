/** The session editor's own English texts (the edit-session route's chunk carries this module). */
export const EDITOR_TEXTS = {
  /** A session's heading while its title is not known yet. */
  session: 'Session',
  start: 'Start',
  editSession: 'Edit session',
  loadingSession: 'Loading session…',
  actions: 'Actions',
  /** One of the actions, in 'Add action'. */
  action: 'action',
  prompts: 'Prompts',
  /** One of the prompts, in 'Add prompt'. */
  promptNoun: 'prompt',
  actionName: 'Action name',
  hexColour: 'Hex colour',
  transparent: 'Transparent',
  promptTime: 'Prompt time (hh:mm:ss)',
  promptTimePlaceholder: 'hh:mm:ss',
  promptDuration: 'Prompt duration (seconds)',
  promptDurationPlaceholder: 'seconds',
  sourcePlaceholder: 'https://www.youtube.com/watch?v=...',
  completionUrlPlaceholder: 'https://survey.example.org/thanks',
  source: 'Source',
  uploadProgress: 'Upload progress',
  chooseIcon: 'Choose an icon',
  iconStyle: 'Icon style',
  loadingIcons: 'Loading icons…',
  promptText: 'Prompt text',
  searchIcons: 'Search icons',
} as const;

/** An editor list's add button: 'Add action'. */
export const addItemText = (noun: string): string => `Add ${noun}`;

/** An editor list's empty state while it loads, then once loaded ('Actions' → 'Loading actions…'). */
export const loadingListText = (title: string): string => `Loading ${title.toLowerCase()}…`;
export const emptyListText = (title: string): string => `No ${title.toLowerCase()} yet.`;

export const uploadingText = (percent: number): string => `Uploading ${percent}%`;

/** The icon picker's search found nothing. */
export const noIconMatchText = (query: string): string => `No icon matches “${query}”.`;

export const iconCountText = (count: number): string => (count === 1 ? '1 icon' : `${count} icons`);
