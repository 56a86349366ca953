import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PARTICIPANT, RESEARCHER, type Participant, type User } from '@uis/proto';
import type { Client } from 'pg';
import { In, type EntityManager, type Repository } from 'typeorm';
import { UserEntity } from './user.entity';

/** The users table: every statement auth sends about accounts. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findByEmail(email: string, db: EntityManager = this.users.manager): Promise<UserEntity | null> {
    return db.findOneBy(UserEntity, { email });
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  async create(db: EntityManager, user: Pick<UserEntity, 'email' | 'name' | 'type'>): Promise<UserEntity> {
    return db.save(db.create(UserEntity, user));
  }

  /** The participants with an account among `emails` (lower-cased, as accounts keep them). */
  async participantsAmong(emails: readonly string[]): Promise<Participant[]> {
    if (emails.length === 0) return [];
    const rows = await this.users.find({
      where: { type: PARTICIPANT, email: In([...emails]) },
      order: { name: 'ASC', email: 'ASC' },
    });
    return rows.map(({ email, name }) => ({ email, name }));
  }

  async delete(db: EntityManager, id: string): Promise<void> {
    await db.delete(UserEntity, { id });
  }
}

/** A valid token whose account was deleted meanwhile. */
export const ACCOUNT_GONE_TEXT = 'This account no longer exists.';

export const toUser = ({ id, email, name, type }: UserEntity): User => ({ id, email, name, type });

export type PromoteOutcome = 'promoted' | 'already-researcher' | 'not-found';

/**
 * The admin command's promotion, on a plain pg client (it runs without the app, so without
 * TypeORM): the account of `email` (lower-cased) becomes a researcher's.
 */
export async function promoteToResearcher(
  client: Pick<Client, 'query'>,
  schema: string,
  email: string,
): Promise<PromoteOutcome> {
  const { rows } = await client.query<{ type: string }>(
    `SELECT type FROM "${schema}".users WHERE email = $1`,
    [email],
  );
  const user = rows[0];
  if (!user) return 'not-found';
  if (user.type === RESEARCHER) return 'already-researcher';
  await client.query(`UPDATE "${schema}".users SET type = $1 WHERE email = $2`, [RESEARCHER, email]);
  return 'promoted';
}
