import { Injectable } from '@nestjs/common';
import { GROUP_ACCESS_TEXTS, conflict, forbidden, notFound, type AuthUser } from '@uis/kit';
import { DEFAULT_GROUP_TITLE, type Group, type GroupSessions } from '@uis/proto';
import { requireOwnEmail } from '../caller-email';
import { Transactions } from '../database/sql';
import { nextDefaultTitle } from '../default-title';
import { SessionDataDeletion } from '../deletion/session-data-deletion.service';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { SessionsRepository } from '../sessions/sessions.repository';
import { GroupsRepository, type GroupRow } from './groups.repository';

/** How often a group delete re-runs when sessions are added to it while it is being deleted. */
const DELETE_ATTEMPTS = 5;

export const toGroup = ({ id, title }: GroupRow): Group => ({ group_id: id, title });

/** Groups: who may see, rename and delete them, and how a group goes with its sessions. */
@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly sessions: SessionsRepository,
    private readonly transactions: Transactions,
    private readonly sessionData: SessionDataDeletion,
    private readonly live: LiveAccessNotifier,
  ) {}

  async list(caller: AuthUser, email: string | undefined): Promise<Group[]> {
    requireOwnEmail(caller, email, 'You can only list your own groups.');
    return (await this.groups.listOwnedBy(caller.id)).map(toGroup);
  }

  async create(caller: AuthUser, input: { email?: string; title?: string }): Promise<Group> {
    requireOwnEmail(caller, input.email, 'You can only create groups for yourself.');
    const title = input.title ?? (await this.nextDefaultTitle(caller.id));
    return toGroup(await this.groups.create(caller.id, title));
  }

  async rename(caller: AuthUser, groupId: string, title: string): Promise<void> {
    await this.requireOwned(caller, groupId);
    await this.groups.rename(groupId, title);
  }

  async delete(caller: AuthUser, groupId: string): Promise<void> {
    await this.requireOwned(caller, groupId);
    await this.deleteGroups([groupId]);
  }

  /** The group, if the caller owns it: 404 when there is no such group, 403 when it is another's. */
  async requireOwned(caller: AuthUser, groupId: string): Promise<GroupRow> {
    const group = await this.groups.find(groupId);
    if (!group) throw notFound(GROUP_ACCESS_TEXTS.noGroup);
    if (group.ownerId !== caller.id) throw forbidden(GROUP_ACCESS_TEXTS.notYourGroup);
    return group;
  }

  /**
   * A group's sessions, oldest first (as getSessions lists them), for records' study export, with
   * whether `userId` owns the group; another researcher's group answers no sessions.
   */
  async sessionsFor(groupId: string, userId: string): Promise<GroupSessions> {
    const group = await this.groups.find(groupId);
    if (!group) return { exists: false, owner: false, sessionIds: [] };
    if (group.ownerId !== userId) return { exists: true, owner: false, sessionIds: [] };
    return { exists: true, owner: true, sessionIds: await this.sessions.idsInGroups([groupId]) };
  }

  idsOwnedBy(ownerId: string): Promise<string[]> {
    return this.groups.idsOwnedBy(ownerId);
  }

  /**
   * Deletes groups with their sessions: first content and records delete those sessions' data, then
   * the rows go in one transaction. The groups are locked while their sessions are re-read, so a
   * session created meanwhile is noticed (and its data deleted on the next round), never orphaned.
   */
  async deleteGroups(groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    const cleaned = new Set<string>();
    for (let attempt = 0; attempt < DELETE_ATTEMPTS; attempt++) {
      const pending = (await this.sessions.idsInGroups(groupIds)).filter((id) => !cleaned.has(id));
      await this.sessionData.deleteDataOf(pending);
      pending.forEach((id) => cleaned.add(id));

      const deleted = await this.transactions.run(async (tx) => {
        await this.groups.lock(groupIds, tx);
        const now = await this.sessions.idsInGroups(groupIds, tx);
        if (now.some((id) => !cleaned.has(id))) return false;
        await this.sessions.deleteInGroups(groupIds, tx);
        await this.groups.delete(groupIds, tx);
        return true;
      });
      if (deleted) {
        await this.live.changed([...cleaned], true);
        return;
      }
    }
    throw conflict('Sessions kept being added to this group while it was being deleted. Please try again.');
  }

  private async nextDefaultTitle(ownerId: string): Promise<string> {
    return nextDefaultTitle(
      DEFAULT_GROUP_TITLE,
      await this.groups.titlesStartingWith(ownerId, DEFAULT_GROUP_TITLE),
    );
  }
}
