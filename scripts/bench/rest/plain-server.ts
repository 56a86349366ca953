import express, { type Request, type Response } from 'express';
import { verifyAccessToken } from '@uis/kit';
import { Pool } from 'pg';
import { inputOf } from '../support/child';

/**
 * P6's baseline: the two routes as a plain Express + pg handler would serve them, with the same
 * statements our services send (the access check included, as records asks studies for it), the
 * same token check and the same answer shape. No framework, no validation library, no entity
 * mapping: what is left is what a route costs at the least.
 */

const GROUP_SQL = `SELECT "GroupEntity"."id" AS "GroupEntity_id", "GroupEntity"."owner_id" AS "GroupEntity_owner_id", "GroupEntity"."title" AS "GroupEntity_title", "GroupEntity"."created_at" AS "GroupEntity_created_at" FROM "studies"."groups" "GroupEntity" WHERE (("GroupEntity"."id" = $1)) LIMIT 1`;

const SESSIONS_SQL = `SELECT "SessionEntity"."id" AS "SessionEntity_id", "SessionEntity"."group_id" AS "SessionEntity_group_id", "SessionEntity"."title" AS "SessionEntity_title", "SessionEntity"."type" AS "SessionEntity_type", "SessionEntity"."scope" AS "SessionEntity_scope", "SessionEntity"."track" AS "SessionEntity_track", "SessionEntity"."source" AS "SessionEntity_source", "SessionEntity"."created_at" AS "SessionEntity_created_at" FROM "studies"."sessions" "SessionEntity" WHERE (("SessionEntity"."group_id" = $1)) ORDER BY "SessionEntity"."created_at" ASC, "SessionEntity"."id" ASC`;

/** studies' access check: the session's type, scope and its group's owner, one statement. */
const MEMBERSHIP_SQL = `SELECT s.id, s.type, s.scope, g.owner_id AS "ownerId" FROM studies.sessions s JOIN studies.groups g ON g.id = s.group_id WHERE s.id = ANY($1::uuid[])`;

/** records' list: every message of the session, oldest first. */
const MESSAGES_SQL = `SELECT id, seq, message, name, created_at AS "createdAt" FROM records.messages WHERE session_id = $1 ORDER BY seq`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = Record<string, unknown>;

const { databaseUrl, jwtSecret } = inputOf<{ databaseUrl: string; jwtSecret: string }>();
// TypeORM's pool size (pg's default, 10), so both sides wait on Postgres alike.
const pool = new Pool({ connectionString: databaseUrl, max: 10 });

const fail = (res: Response, status: number, message: string) =>
  res.status(status).json({ status: 'ERROR', res: { message } });

/** The caller's id, or null after answering 401 / 400. */
function callerOf(
  req: Request,
  res: Response,
  param: string,
): { userId: string; email: string; id: string } | null {
  const token = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
  const access = token ? verifyAccessToken(jwtSecret, token) : null;
  if (!access) return fail(res, 401, 'Sign in.') && null;
  const id = req.query[param];
  if (typeof id !== 'string' || !UUID.test(id)) return fail(res, 400, `${param}: must be an id`) && null;
  return { userId: access.user.id, email: access.user.email, id };
}

async function getSessions(req: Request, res: Response): Promise<void> {
  const caller = callerOf(req, res, 'groupId');
  if (!caller) return;
  const group = (await pool.query<Row>(GROUP_SQL, [caller.id])).rows[0];
  if (!group) return void fail(res, 404, 'No such group.');
  if (group.GroupEntity_owner_id !== caller.userId)
    return void fail(res, 403, 'This group belongs to another researcher.');
  const { rows } = await pool.query<Row>(SESSIONS_SQL, [caller.id]);
  const sessions = rows.map((row) => ({
    session_id: row.SessionEntity_id,
    title: row.SessionEntity_title,
    scope: row.SessionEntity_scope ?? 'Everyone',
    type: row.SessionEntity_type,
    track: row.SessionEntity_track,
    source: row.SessionEntity_source,
  }));
  res.json({ status: 'SUCCESS', res: { sessions } });
}

/** Owner or participant in scope, as studies decides it for records. */
async function isMember(caller: { userId: string; email: string; id: string }): Promise<boolean> {
  const row = (await pool.query<Row>(MEMBERSHIP_SQL, [[caller.id]])).rows[0];
  if (!row) return false;
  const scope = row.scope as string[] | null;
  return row.ownerId === caller.userId || scope === null || scope.includes(caller.email);
}

async function getMessages(req: Request, res: Response): Promise<void> {
  const caller = callerOf(req, res, 'sessionId');
  if (!caller) return;
  if (!(await isMember(caller))) return void fail(res, 403, 'You are not part of this session.');
  const { rows } = await pool.query<Row>(MESSAGES_SQL, [caller.id]);
  const messages = rows.map((row) => ({
    message_id: row.id,
    seq: row.seq,
    message: row.message,
    time: (row.createdAt as Date).toISOString(),
    name: row.name,
  }));
  res.json({ status: 'SUCCESS', res: { messages } });
}

const app = express();
app.get('/getSessions', getSessions);
app.get('/getMessages', getMessages);
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
