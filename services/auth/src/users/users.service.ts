import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PARTICIPANT, type Participant, type User } from '@uis/proto';
import { In, type EntityManager, type Repository } from 'typeorm';
import { UserEntity } from './user.entity';

/** The users table: the one place auth reads and writes accounts. */
@Injectable()
export class UsersService {
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
