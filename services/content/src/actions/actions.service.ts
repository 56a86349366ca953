import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, notFound, type AuthUser } from '@uis/kit';
import type { Action, ParsedRequestOf } from '@uis/proto';
import type { Repository } from 'typeorm';
import { definedOnly } from '../defined-only';
import { ActionEntity } from './action.entity';

const toAction = (row: ActionEntity): Action => ({
  action_id: row.id,
  name: row.name,
  color: row.color,
  icon: row.icon,
  type: row.style,
});

/** A session's actions (reaction icons): members read them, only the session's owner changes them. */
@Injectable()
export class ActionsService {
  constructor(
    @InjectRepository(ActionEntity) private readonly actions: Repository<ActionEntity>,
    private readonly access: SessionAccessClient,
  ) {}

  async list(user: AuthUser, sessionId: string): Promise<Action[]> {
    await this.access.requireMember(user, sessionId);
    const rows = await this.actions.find({ where: { sessionId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toAction);
  }

  async add(user: AuthUser, input: ParsedRequestOf<'addAction'>): Promise<Action> {
    await this.access.requireOwner(user, input.sessionId);
    const row = await this.actions.save(
      this.actions.create({
        sessionId: input.sessionId,
        name: input.name,
        color: input.color,
        icon: input.icon,
        style: input.type,
      }),
    );
    return toAction(row);
  }

  async edit(user: AuthUser, input: ParsedRequestOf<'editAction'>): Promise<void> {
    const row = await this.findOwned(user, input.actionId);
    await this.actions.update(
      { id: row.id },
      definedOnly({ name: input.name, color: input.color, icon: input.icon, style: input.type }),
    );
  }

  async delete(user: AuthUser, actionId: string): Promise<void> {
    const row = await this.findOwned(user, actionId);
    await this.actions.delete({ id: row.id });
  }

  /** The action, if it exists (404) and the caller owns its session (403). */
  private async findOwned(user: AuthUser, actionId: string): Promise<ActionEntity> {
    const row = await this.actions.findOneBy({ id: actionId });
    if (!row) throw notFound('No such action.');
    await this.access.requireOwner(user, row.sessionId);
    return row;
  }
}
