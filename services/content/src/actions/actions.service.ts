import { Injectable } from '@nestjs/common';
import { SessionAccessClient, notFound, type AuthUser } from '@uis/kit';
import type { Action, ParsedRequestOf } from '@uis/proto';
import { ActionsRepository } from './actions.repository';

/** A session's actions (reaction icons): members read them, only the session's owner changes them. */
@Injectable()
export class ActionsService {
  constructor(
    private readonly actions: ActionsRepository,
    private readonly access: SessionAccessClient,
  ) {}

  async list(user: AuthUser, sessionId: string): Promise<Action[]> {
    await this.access.requireMember(user, sessionId);
    return this.actions.listBySession(sessionId);
  }

  async add(user: AuthUser, input: ParsedRequestOf<'addAction'>): Promise<Action> {
    await this.access.requireOwner(user, input.sessionId);
    const { name, color, icon, type } = input;
    return this.actions.add(input.sessionId, { name, color, icon, style: type });
  }

  async edit(user: AuthUser, input: ParsedRequestOf<'editAction'>): Promise<void> {
    await this.requireOwned(user, input.actionId);
    const { name, color, icon, type } = input;
    await this.actions.update(input.actionId, { name, color, icon, style: type });
  }

  async delete(user: AuthUser, actionId: string): Promise<void> {
    await this.requireOwned(user, actionId);
    await this.actions.delete(actionId);
  }

  /** The action exists (404) and the caller owns its session (403). */
  private async requireOwned(user: AuthUser, actionId: string): Promise<void> {
    const sessionId = await this.actions.sessionOf(actionId);
    if (sessionId === null) throw notFound('No such action.');
    await this.access.requireOwner(user, sessionId);
  }
}
