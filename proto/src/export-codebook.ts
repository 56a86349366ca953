/**
 * The records exports' tables and their codebook: every file, every column, its type and meaning.
 * One definition serves the study export (one CSV per table in a ZIP, with codebook.csv written from
 * this), the per-tab CSV downloads (one table of one session) and the web app's file names. A new table
 * (say exposure events) is one entry here, and records' row source for it (its `ExportTableSources` does
 * not compile without one). Zod-free; the browser's part is export-file-names.ts (the download names).
 *
 * Conventions, the same in every file (README, "Reading the export in R and Python"):
 * - UTF-8 without a byte order mark, CRLF rows, a header row, RFC 4180 quoting; column names in snake_case.
 * - A wall-clock instant is ISO 8601 text in UTC with milliseconds (`2026-01-02T03:04:05.678Z`), in a
 *   column ending `_at`; a position in the video or a duration is a whole number of milliseconds, in a
 *   column ending `_ms`.
 * - Booleans are `true` / `false`; a missing value is an empty cell.
 * - People are `participant_id`s (`P-` and 12 hex digits, the same for a person in every export the
 *   same researcher makes); e-mails, names, account ids and panel ids are only in identifiers.csv, and
 *   only when the researcher asks for it.
 */

/** What a column holds, as codebook.csv names it. */
export const EXPORT_VALUE_TYPES = ['text', 'integer', 'number', 'boolean', 'timestamp'] as const;
export type ExportValueType = (typeof EXPORT_VALUE_TYPES)[number];

export interface ExportColumnDef<N extends string = string> {
  name: N;
  type: ExportValueType;
  /** May the cell be empty? */
  nullable: boolean;
  meaning: string;
}

export interface ExportTableDef<C extends readonly ExportColumnDef[] = readonly ExportColumnDef[]> {
  /** What one row is. */
  row: string;
  columns: C;
}

const column = <const N extends string>(
  name: N,
  type: ExportValueType,
  meaning: string,
  nullable = false,
): ExportColumnDef<N> => ({ name, type, nullable, meaning });

const table = <const C extends readonly ExportColumnDef[]>(row: string, columns: C): ExportTableDef<C> => ({
  row,
  columns,
});

const sessionId = column('session_id', 'text', 'The session (sessions.csv).');
const participantId = (who: string) =>
  column(
    'participant_id',
    'text',
    `${who}: P- and 12 hex digits, the same person in every table and in every export this researcher makes (identifiers.csv names them, when exported).`,
  );

/**
 * The export's tables, in the order the study export writes them (each as `<table>.csv`). The
 * identifying table (identifiers) is last and only written when asked for.
 */
export const EXPORT_TABLES = {
  sessions: table('One exported session with its settings as they are now.', [
    sessionId,
    column('group_id', 'text', 'The group (study) holding the session.'),
    column('group_title', 'text', "The group's title.", true),
    column('title', 'text', "The session's title."),
    column('type', 'text', 'video, stream or chat.'),
    column('source', 'text', 'The address of the stream a stream session plays.', true),
    column(
      'video_file',
      'text',
      'The file name of the uploaded video a video session plays; empty when none.',
      true,
    ),
    column('track', 'text', 'Its track (the researcher’s label of the condition or arm).', true),
    column(
      'scope_kind',
      'text',
      'everyone (any signed-in participant may join) or list (only the e-mails listed).',
    ),
    column('scope_size', 'integer', 'How many e-mails the scope lists (empty for everyone).', true),
    column(
      'completion_url',
      'text',
      'Where participants are sent when the researcher ends the session.',
      true,
    ),
    column('created_at', 'timestamp', 'When the session was created.'),
  ]),
  actions: table("One reaction action of a session as it is now (messages.csv's action_id refers here).", [
    sessionId,
    column('action_id', 'text', 'The action.'),
    column('name', 'text', 'Its name, as a reaction message says it.'),
    column('icon', 'text', 'Its Material icon name.'),
    column('icon_style', 'text', 'filled, outlined, round, sharp or two-tone.'),
    column('color', 'text', "Its colour (hex, or 'transparent')."),
  ]),
  participants: table(
    'One person of one session: everyone who wrote a record of it, and everyone its roster names (invited, or came by its join link).',
    [
      sessionId,
      participantId('The person'),
      column('role', 'text', 'researcher (the session’s owner) or participant.'),
      column(
        'source',
        'text',
        'How they came: scope (invited by e-mail) or link (the join link); empty when not on the roster.',
        true,
      ),
      column('invited_at', 'timestamp', 'When they were last invited.', true),
      column('joined_at', 'timestamp', 'When they first opened the session.', true),
      column('messages', 'integer', 'Chat messages they wrote (reactions not counted).'),
      column('reactions', 'integer', 'Reactions they sent.'),
      column('clicks', 'integer', 'Clicks on the video.'),
      column('playback', 'integer', 'Playback log entries (the researcher’s player).'),
      column('first_record_at', 'timestamp', 'Their first record of any kind.', true),
      column('last_record_at', 'timestamp', 'Their last record of any kind.', true),
    ],
  ),
  messages: table('One chat message or reaction, in the order stored.', [
    sessionId,
    column('message_id', 'text', 'The message.'),
    column('seq', 'integer', 'Its place in the session’s chat (1, 2, … in the order stored).'),
    participantId('Who wrote it'),
    column('sent_at', 'timestamp', 'When it was stored.'),
    column(
      'video_time_ms',
      'integer',
      'Where the researcher’s player was in the video when it was stored; empty before anything played.',
      true,
    ),
    column('message', 'text', 'Its text as it is now (after any edit).'),
    column('action_id', 'text', 'For a reaction, its action (actions.csv); empty for a typed message.', true),
    column('edited', 'boolean', 'Whether the researcher edited the text.'),
    column(
      'original_text',
      'text',
      'The text as written, before the first edit; empty when never edited.',
      true,
    ),
  ]),
  pixels: table('One click on the video.', [
    sessionId,
    column('pixel_id', 'text', 'The click.'),
    participantId('Who clicked'),
    column('clicked_at', 'timestamp', 'When it was stored.'),
    column('video_time_ms', 'integer', 'Where the video was; empty when nothing was playing.', true),
    column('x', 'number', 'Horizontal position, 0 (left) to 1 (right) of the video area.'),
    column('y', 'number', 'Vertical position, 0 (top) to 1 (bottom) of the video area.'),
    column('color', 'text', "The marker's colour (rgba, or n/a for a stream)."),
  ]),
  prompts: table('One timed prompt of a session as it is now.', [
    sessionId,
    column('prompt_id', 'text', 'The prompt.'),
    column('video_time_ms', 'integer', 'Where in the video it fires.'),
    column('duration_ms', 'integer', 'How long the video stays paused (0: until the researcher plays on).'),
    column('prompt', 'text', 'Its text.'),
  ]),
  playback: table("One entry of the researcher's playback log.", [
    sessionId,
    column('playback_id', 'text', 'The entry.'),
    column('seq', 'integer', 'Its place in the session’s log.'),
    participantId('The researcher who played'),
    column('logged_at', 'timestamp', 'When the server received it.'),
    column('event', 'text', 'play, pause, seek, rate or prompt.'),
    column('video_time_ms', 'integer', 'Where the player was (for a seek, where it went).'),
    column('playback_rate', 'number', 'The playback speed (1 is normal).'),
    column('prompt_id', 'text', 'The prompt that fired (event prompt), else empty.', true),
  ]),
  audit: table("One researcher's edit or deletion of a record.", [
    sessionId,
    column('audit_id', 'text', 'The entry.'),
    column('changed_at', 'timestamp', 'When the change was made.'),
    column('kind', 'text', 'editMessage, deleteMessage or deletePixel.'),
    column('record_id', 'text', 'The message or click changed.'),
    participantId('The researcher who changed it'),
    column('record_participant_id', 'text', 'Who wrote the record (a participant_id).', true),
    column('message_before', 'text', 'The message’s text before the change (message kinds).', true),
    column('message_after', 'text', 'The message’s text after an edit.', true),
  ]),
  'consent-texts': table('One version of a session’s consent text.', [
    sessionId,
    column('version', 'integer', 'Its version (1, 2, …).'),
    column(
      'sha256',
      'text',
      'SHA-256 (hex) of the text exactly as shown (consent-texts.json holds it unaltered).',
    ),
    column('created_at', 'timestamp', 'When it was set.'),
    column('text', 'text', 'The text.'),
  ]),
  consents: table('One agreement to a consent text.', [
    sessionId,
    participantId('Who agreed'),
    column('version', 'integer', 'The version agreed to.'),
    column('sha256', 'text', 'SHA-256 of that version’s text.'),
    column('accepted_at', 'timestamp', 'When they agreed.'),
    column('withdrawn_at', 'timestamp', 'When the agreement ended (a withdrawal), else empty.', true),
  ]),
  withdrawals: table(
    'One withdrawal of a participant from a session (their messages and clicks were deleted).',
    [
      sessionId,
      column('withdrawal_id', 'text', 'The withdrawal.'),
      participantId('Who withdrew'),
      column('withdrawn_at', 'timestamp', 'When.'),
      column('messages_deleted', 'integer', 'Their messages (reactions included) it deleted.'),
      column('clicks_deleted', 'integer', 'Their clicks it deleted.'),
    ],
  ),
  exposure: table(
    'One moment of a participant’s exposure: joined or left the live session, sound off or on, the tab hidden or shown, fullscreen, the video stalled or resumed (to exclude who did not watch).',
    [
      sessionId,
      column('event_id', 'text', 'The event (the browser’s id for it; realtime’s for joins and leaves).'),
      column('seq', 'integer', 'Its place in the session’s exposure log.'),
      participantId('Whose'),
      column(
        'kind',
        'text',
        'join, leave, mute, unmute, hidden, visible, fullscreen_enter, fullscreen_exit, stall or stall_end.',
      ),
      column('video_time_ms', 'integer', 'Where the video was; empty when nothing was playing.', true),
      column(
        'client_at',
        'timestamp',
        'When it happened by the participant’s clock; empty for joins and leaves.',
        true,
      ),
      column('stored_at', 'timestamp', 'When the server stored it.'),
    ],
  ),
  'device-checks': table("One participant's pre-session device check.", [
    sessionId,
    column('device_check_id', 'text', 'The check.'),
    participantId('Who ran it'),
    column('checked_at', 'timestamp', 'When it was stored.'),
    column('browser_name', 'text', 'Their browser.'),
    column('browser_version', 'text', 'Its version.'),
    column('camera', 'text', 'pass or fail.'),
    column('microphone', 'text', 'pass or fail.'),
    column('speakers', 'text', 'pass or fail.'),
    column('stun', 'text', 'pass or fail.'),
    column('turn', 'text', 'pass or fail.'),
    column('rtt', 'text', 'pass or fail (the round trip was short enough).'),
    column('rtt_ms', 'integer', 'The measured round trip.', true),
  ]),
  identifiers: table(
    'Who a participant_id is in one session: only in an export made with identifiers. Keep it apart from the data.',
    [
      sessionId,
      participantId('The person'),
      column('user_id', 'text', 'Their account id; empty when they never signed in.', true),
      column('email', 'text', 'Their e-mail address.'),
      column(
        'name',
        'text',
        'The name of their latest record (their account name); empty when they wrote nothing.',
        true,
      ),
      column(
        'panel_id_conflicts',
        'text',
        'JSON list of later joins that carried other panel ids ({at, panelIds}); empty when none.',
        true,
      ),
    ],
  ),
} as const;

export type ExportTable = keyof typeof EXPORT_TABLES;
/** Every table, in the order the study export writes them. */
export const EXPORT_TABLE_NAMES = Object.keys(EXPORT_TABLES) as ExportTable[];
/** The table only an export with identifiers holds (e-mails, names, account and panel ids). */
export const IDENTIFYING_EXPORT_TABLE = 'identifiers' satisfies ExportTable;
/** The tables every export may hold: all but the identifying one. */
export type DataExportTable = Exclude<ExportTable, typeof IDENTIFYING_EXPORT_TABLE>;
export const DATA_EXPORT_TABLES = EXPORT_TABLE_NAMES.filter(
  (name): name is DataExportTable => name !== IDENTIFYING_EXPORT_TABLE,
);

/** A column's name in a table. */
export type ExportColumn<T extends ExportTable> = (typeof EXPORT_TABLES)[T]['columns'][number]['name'];
/** What a cell holds; null is an empty cell. */
export type ExportCell = string | number | boolean | null;
/** One row of `table`: a cell per column. */
export type ExportTableRow<T extends ExportTable> = Record<ExportColumn<T>, ExportCell>;

/** The columns of a table, by name, in order. */
export const exportColumns = (name: ExportTable): readonly string[] =>
  EXPORT_TABLES[name].columns.map((c) => c.name);

/** identifiers.csv has a column per recruitment-panel id name: panel_PROLIFIC_PID, panel_STUDY_ID, … */
export const PANEL_ID_COLUMN_PREFIX = 'panel_';
export const panelIdColumn = (idName: string): ExportColumnDef => ({
  name: `${PANEL_ID_COLUMN_PREFIX}${idName}`,
  type: 'text',
  nullable: true,
  meaning: `The recruitment panel's ${idName}, as the join link carried it (their first join that carried any).`,
});

/** The codebook's file and its columns: a row per column of every CSV (its own included). */
export const EXPORT_CODEBOOK_FILE = 'codebook.csv';
export const EXPORT_CODEBOOK_COLUMNS = ['file', 'column', 'type', 'nullable', 'meaning'] as const;
/** The codebook for reading: what a row of each file is, and its columns. */
export const EXPORT_CODEBOOK_MARKDOWN = 'codebook.md';

/** A table's file inside the study export. */
export const exportTableFile = (name: ExportTable) => `${name}.csv` as const;
