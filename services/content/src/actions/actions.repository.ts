import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Action, IconStyle } from '@uis/proto';
import { In, type EntityManager, type Repository } from 'typeorm';
import { definedOnly } from '../defined-only';
import { ActionEntity } from './action.entity';

/** What an action is made of, besides its session: `type` on the wire is `style` in the table. */
export interface ActionFields {
  name: string;
  color: string;
  icon: string;
  style: IconStyle;
}

const toAction = (row: ActionEntity): Action => ({
  action_id: row.id,
  name: row.name,
  color: row.color,
  icon: row.icon,
  type: row.style,
});

/** The actions table: every read and write of it, and its row mapper. */
@Injectable()
export class ActionsRepository {
  constructor(@InjectRepository(ActionEntity) private readonly actions: Repository<ActionEntity>) {}

  /** A session's actions in the order they were added. */
  async listBySession(sessionId: string): Promise<Action[]> {
    const rows = await this.actions.find({ where: { sessionId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toAction);
  }

  async add(sessionId: string, fields: ActionFields): Promise<Action> {
    return toAction(await this.actions.save(this.actions.create({ sessionId, ...fields })));
  }

  /** The session an action belongs to, or null when there is no such action. */
  async sessionOf(actionId: string): Promise<string | null> {
    const row = await this.actions.findOne({ select: { sessionId: true }, where: { id: actionId } });
    return row?.sessionId ?? null;
  }

  /** Changes the fields given (an undefined one keeps its value). */
  async update(actionId: string, fields: Partial<ActionFields>): Promise<void> {
    await this.actions.update({ id: actionId }, definedOnly(fields));
  }

  async delete(actionId: string): Promise<void> {
    await this.actions.delete({ id: actionId });
  }

  /** Every action of these sessions, inside `tx` (ContentTransactions) when given. */
  async deleteSessions(sessionIds: readonly string[], tx?: EntityManager): Promise<void> {
    await (tx ?? this.actions.manager).delete(ActionEntity, { sessionId: In([...sessionIds]) });
  }
}
