import { Inject, Injectable } from '@nestjs/common';
import { InternalClient, type AuthUser } from '@uis/kit';
import {
  EXPORT_TABLES,
  internalRoutes,
  panelIdColumn,
  type Action,
  type ExportColumnDef,
  type ExportTable,
  type InternalAnswerOf,
  type Prompt,
  type SessionSettings,
  type StudyExportProblem,
  type StudyExportRow,
} from '@uis/proto';
import { AuditLogService } from '../audit/audit-log.service';
import { DeviceChecksService } from '../device-checks/device-checks.service';
import { ExposureService } from '../exposure/exposure.service';
import { MessagesService } from '../messages/messages.service';
import { PixelsService } from '../pixels/pixels.service';
import { PlaybackService } from '../playback/playback.service';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { ConsentExportSource } from '../withdrawals/consent-export.source';
import type { CsvRows } from './csv-stream';
import { secondsToMs } from './export-cells';
import { participantIdKey, participantIds } from './participant-ids';
import { SessionPeople, toIdentifierRow, toParticipantRow, type Roster } from './session-people';

/** Where each table's rows of one session come from: a table without a source does not compile. */
type ExportTableSources = { [T in ExportTable]: (sessionId: string) => CsvRows };

/** What another service could not give and the export went on without (the manifest's problems). */
export type ReportProblem = (problem: StudyExportProblem, err: unknown) => void;

/** An export ready to write: every table's columns and rows, asked of the other services already. */
export interface PreparedExport {
  /** A table's columns as its file has them (identifiers: a panel_<NAME> column per panel id found). */
  columnsOf(table: ExportTable): readonly ExportColumnDef[];
  /** A table's rows of one session, read when asked (records' own a page at a time). */
  rowsOf(table: ExportTable, sessionId: string): CsvRows;
  /** The session's settings; null when studies has no such session. */
  settingsOf(sessionId: string): SessionSettings | null;
  /** Every consent text exactly as shown (consent-texts.json). */
  exactConsentTexts: InternalAnswerOf<'studiesConsentExport'>['texts'];
}

/** What of the other services' data each table needs, so an export of one table asks only for that. */
const NEEDS = {
  settings: ['sessions'],
  video: ['sessions'],
  actions: ['actions'],
  prompts: ['prompts'],
  roster: ['participants', 'identifiers'],
  consent: ['consent-texts', 'consents', 'withdrawals'],
} as const satisfies Record<string, readonly ExportTable[]>;

const needs = (tables: readonly ExportTable[], what: keyof typeof NEEDS) =>
  tables.some((table) => (NEEDS[what] as readonly ExportTable[]).includes(table));

const rosterMissing =
  'The roster (who was invited, who came by link, panel ids) could not be read: these rows hold the records’ writers only, with no source, invitation, join time or panel ids.';

/**
 * The exports' tables (EXPORT_TABLES), for the study export (every table of every session) and the
 * per-tab download (one table of one session): the other services' part (studies' settings, roster
 * and consent, content's video name, actions and prompts) is asked before the first byte, so a refusal is still a
 * JSON error; records' own rows are read a page at a time as the file is written. People are the
 * exporting researcher's participant_ids.
 */
@Injectable()
export class ExportSources {
  constructor(
    private readonly internal: InternalClient,
    private readonly messages: MessagesService,
    private readonly pixels: PixelsService,
    private readonly playback: PlaybackService,
    private readonly audit: AuditLogService,
    private readonly deviceChecks: DeviceChecksService,
    private readonly exposure: ExposureService,
    private readonly consent: ConsentExportSource,
    private readonly sessionPeople: SessionPeople,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The export of `tables` of these sessions (of `user`'s, checked by the caller) for `user`. */
  async prepare(
    user: AuthUser,
    sessionIds: readonly string[],
    tables: readonly ExportTable[],
    report: ReportProblem,
    { withSettings = false } = {},
  ): Promise<PreparedExport> {
    const people = participantIds(participantIdKey(this.config), user.id);
    const unless = <T>(needed: boolean, ask: () => Promise<T>): Promise<T | null> =>
      needed ? ask() : Promise.resolve(null);
    // The services are asked side by side, each one session after the other (a few calls per session).
    const [settings, videos, actions, prompts, rosters, consent] = await Promise.all([
      unless(withSettings || needs(tables, 'settings'), () =>
        this.eachSession(sessionIds, (id) => this.settingsOf(id)),
      ),
      unless(needs(tables, 'video'), () => this.eachSession(sessionIds, (id) => this.videoNameOf(id))),
      unless(needs(tables, 'actions'), () => this.eachSession(sessionIds, (id) => this.actionsOf(id))),
      unless(needs(tables, 'prompts'), () => this.eachSession(sessionIds, (id) => this.promptsOf(id))),
      unless(needs(tables, 'roster'), () => this.eachSession(sessionIds, (id) => this.rosterOf(id, report))),
      unless(needs(tables, 'consent'), () => this.consent.prepare(sessionIds, people)),
    ]);

    const panelIdNames = [
      ...new Set(
        [...(rosters?.values() ?? [])].flatMap((roster) =>
          (roster ?? []).flatMap((e) => Object.keys(e.panelIds)),
        ),
      ),
    ].sort();
    const panelColumns = panelIdNames.map(panelIdColumn);
    // A session's people are read once for participants.csv and identifiers.csv both.
    const peopleOf = memo((sessionId: string) =>
      this.sessionPeople.of(sessionId, rosters?.get(sessionId) ?? null),
    );
    const given = <T>(map: Map<string, T> | null, sessionId: string): T | undefined => map?.get(sessionId);

    const sources: ExportTableSources = {
      sessions: (sessionId) => {
        const session = given(settings, sessionId);
        return session ? [toSessionRow(session, given(videos, sessionId) ?? null)] : [];
      },
      actions: (sessionId) =>
        (given(actions, sessionId) ?? []).map((action) => toActionRow(sessionId, action)),
      participants: (sessionId) =>
        mapped(peopleOf(sessionId), (person) => toParticipantRow(sessionId, person, people, user.email)),
      messages: (sessionId) => this.messages.exportRows(sessionId, people),
      pixels: (sessionId) => this.pixels.exportRows(sessionId, people),
      prompts: (sessionId) =>
        (given(prompts, sessionId) ?? []).map((prompt) => toPromptRow(sessionId, prompt)),
      playback: (sessionId) => this.playback.exportRows(sessionId, people),
      audit: (sessionId) => this.audit.exportRows(sessionId, people),
      'consent-texts': (sessionId) => consent?.rows['consent-texts'](sessionId) ?? [],
      consents: (sessionId) => consent?.rows.consents(sessionId) ?? [],
      withdrawals: (sessionId) => consent?.rows.withdrawals(sessionId) ?? [],
      exposure: (sessionId) => this.exposure.exportRows(sessionId, people),
      'device-checks': (sessionId) => this.deviceChecks.exportRows(sessionId, people),
      identifiers: (sessionId) =>
        mapped(peopleOf(sessionId), (person) =>
          toIdentifierRow(sessionId, person, people, (idName) => panelIdColumn(idName).name),
        ),
    };

    return {
      columnsOf: (table) =>
        table === 'identifiers'
          ? [...EXPORT_TABLES.identifiers.columns, ...panelColumns]
          : EXPORT_TABLES[table].columns,
      rowsOf: (table, sessionId) => sources[table](sessionId),
      settingsOf: (sessionId) => given(settings, sessionId) ?? null,
      exactConsentTexts: consent?.exactTexts ?? [],
    };
  }

  /** Studies' or content's answer for each session, asked one session at a time (a few per export). */
  private async eachSession<T>(sessionIds: readonly string[], ask: (sessionId: string) => Promise<T>) {
    const answers = new Map<string, T>();
    for (const sessionId of sessionIds) answers.set(sessionId, await ask(sessionId));
    return answers;
  }

  private async settingsOf(sessionId: string): Promise<SessionSettings | null> {
    return (await this.internal.call(internalRoutes.studiesSessionSettings, { sessionId })).session;
  }

  private async videoNameOf(sessionId: string): Promise<string | null> {
    return (await this.internal.call(internalRoutes.contentSessionVideo, { sessionId })).name;
  }

  private async actionsOf(sessionId: string): Promise<Action[]> {
    return (await this.internal.call(internalRoutes.contentListActions, { sessionId })).actions;
  }

  private async promptsOf(sessionId: string): Promise<Prompt[]> {
    return (await this.internal.call(internalRoutes.contentListPrompts, { sessionId })).prompts;
  }

  /**
   * A roster that cannot be had (studies down, an entry past its contract) leaves the roster's columns
   * empty and is reported: the records' writers are exported all the same.
   */
  private rosterOf(sessionId: string, report: ReportProblem): Promise<Roster> {
    return this.internal.call(internalRoutes.studiesSessionRoster, { sessionId }).then(
      (answer) => answer.people,
      (err: unknown) => {
        report({ file: 'participants.csv', sessionId, message: rosterMissing }, err);
        return null;
      },
    );
  }
}

/** The columns' names of a table's file. */
export const columnNames = (columns: readonly ExportColumnDef[]): string[] => columns.map((c) => c.name);

const toSessionRow = (session: SessionSettings, videoFile: string | null): StudyExportRow<'sessions'> => ({
  session_id: session.sessionId,
  group_id: session.groupId,
  group_title: session.groupTitle,
  title: session.title,
  type: session.type,
  source: session.source === '' ? null : session.source,
  video_file: videoFile,
  track: session.track === '' ? null : session.track,
  scope_kind: session.scopeKind,
  scope_size: session.scopeSize,
  completion_url: session.completionUrl,
  created_at: session.createdAt,
});

const toActionRow = (sessionId: string, action: Action): StudyExportRow<'actions'> => ({
  session_id: sessionId,
  action_id: action.action_id,
  name: action.name,
  icon: action.icon,
  icon_style: action.type,
  color: action.color,
});

const toPromptRow = (sessionId: string, prompt: Prompt): StudyExportRow<'prompts'> => ({
  session_id: sessionId,
  prompt_id: prompt.prompt_id,
  video_time_ms: secondsToMs(prompt.time) ?? 0,
  duration_ms: secondsToMs(prompt.duration) ?? 0,
  prompt: prompt.prompt,
});

/** `read` once per key, its promise kept for the next asker. */
function memo<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const known = new Map<string, Promise<T>>();
  return (key) => {
    let value = known.get(key);
    if (!value) known.set(key, (value = read(key)));
    return value;
  };
}

/** A list read only when its file's turn comes, each item made into a row. */
async function* mapped<P, R>(list: Promise<readonly P[]>, row: (item: P) => R): AsyncGenerator<R> {
  for (const item of await list) yield row(item);
}
