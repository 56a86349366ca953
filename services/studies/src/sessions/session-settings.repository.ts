import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SessionSettings } from '@uis/proto';
import type { DataSource } from 'typeorm';

/** Records' exports' one read of a session (sessions.csv): its settings and its group's title. */
const SETTINGS_SQL = `
  SELECT s.id AS "sessionId", s.group_id AS "groupId", g.title AS "groupTitle", s.title, s.type,
    s.source, s.track, s.completion_url AS "completionUrl", s.created_at AS "createdAt",
    CASE WHEN s.scope IS NULL THEN 'everyone' ELSE 'list' END AS "scopeKind",
    jsonb_array_length(s.scope) AS "scopeSize"
  FROM sessions s JOIN groups g ON g.id = s.group_id
  WHERE s.id = $1`;

/** What the exports read of a session, apart from the sessions repository the session lifecycle owns. */
@Injectable()
export class SessionSettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async settingsOf(sessionId: string): Promise<SessionSettings | null> {
    const [row] = await this.db.query<(Omit<SessionSettings, 'createdAt'> & { createdAt: Date })[]>(
      SETTINGS_SQL,
      [sessionId],
    );
    return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
  }
}
