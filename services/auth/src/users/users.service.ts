import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PARTICIPANT, type Participant, type User } from '@uis/proto';
import type { EntityManager, Repository } from 'typeorm';
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

  async listParticipants(): Promise<Participant[]> {
    const rows = await this.users.find({
      where: { type: PARTICIPANT },
      order: { name: 'ASC', email: 'ASC' },
    });
    return rows.map(({ email, name }) => ({ email, name }));
  }

  async delete(db: EntityManager, id: string): Promise<void> {
    await db.delete(UserEntity, { id });
  }
}

export const toUser = ({ id, email, name, type }: UserEntity): User => ({ id, email, name, type });
