import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Sql } from '../database/sql';

/** A row of `groups`: a researcher's folder of sessions; only its owner sees or changes it. */
export interface GroupRow {
  id: string;
  /** The researcher (auth's user id) who created it. */
  ownerId: string;
  title: string;
}

const COLUMNS = `id, owner_id AS "ownerId", title`;

/** The groups table: every statement studies sends about it. */
@Injectable()
export class GroupsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The owner's groups, oldest first. */
  listOwnedBy(ownerId: string): Promise<GroupRow[]> {
    return this.db.query<GroupRow[]>(
      `SELECT ${COLUMNS} FROM groups WHERE owner_id = $1 ORDER BY created_at ASC, id ASC`,
      [ownerId],
    );
  }

  async find(id: string): Promise<GroupRow | null> {
    const [row] = await this.db.query<GroupRow[]>(`SELECT ${COLUMNS} FROM groups WHERE id = $1 LIMIT 1`, [
      id,
    ]);
    return row ?? null;
  }

  async create(ownerId: string, title: string): Promise<GroupRow> {
    const [row] = await this.db.query<GroupRow[]>(
      `INSERT INTO groups (owner_id, title) VALUES ($1, $2) RETURNING ${COLUMNS}`,
      [ownerId, title],
    );
    return row!;
  }

  async rename(id: string, title: string): Promise<void> {
    await this.db.query(`UPDATE groups SET title = $2 WHERE id = $1`, [id, title]);
  }

  async idsOwnedBy(ownerId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }[]>(`SELECT id FROM groups WHERE owner_id = $1`, [
      ownerId,
    ]);
    return rows.map((row) => row.id);
  }

  /** The owner's titles that start with `prefix` (to number the next default title). */
  async titlesStartingWith(ownerId: string, prefix: string): Promise<string[]> {
    const rows = await this.db.query<{ title: string }[]>(
      `SELECT title FROM groups WHERE owner_id = $1 AND title LIKE $2`,
      [ownerId, `${prefix}%`],
    );
    return rows.map((row) => row.title);
  }

  /** Locks the groups for the rest of `tx` (a group delete re-reads their sessions meanwhile). */
  async lock(ids: readonly string[], tx: Sql): Promise<void> {
    await tx.query(`SELECT id FROM groups WHERE id = ANY($1::uuid[]) FOR UPDATE`, [ids]);
  }

  async delete(ids: readonly string[], tx: Sql): Promise<void> {
    await tx.query(`DELETE FROM groups WHERE id = ANY($1::uuid[])`, [ids]);
  }
}
