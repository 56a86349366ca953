import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { GROUP_ACCESS_TEXTS, conflict, forbidden, notFound, type AuthUser } from '@uis/kit';
import { DEFAULT_GROUP_TITLE, type Group, type GroupSessions } from '@uis/proto';
import { In, Like, type DataSource, type Repository } from 'typeorm';
import { requireOwnEmail } from '../caller-email';
import { nextDefaultTitle } from '../default-title';
import { SessionDataDeletion } from '../deletion/session-data-deletion.service';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { SessionEntity } from '../sessions/session.entity';
import { GroupEntity } from './group.entity';

/** How often a group delete re-runs when sessions are added to it while it is being deleted. */
const DELETE_ATTEMPTS = 5;

export const toGroup = ({ id, title }: GroupEntity): Group => ({ group_id: id, title });

/** Groups: the one place studies reads and writes the groups table. */
@Injectable()
export class GroupsService {
  constructor(
    @InjectRepository(GroupEntity) private readonly groups: Repository<GroupEntity>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessionData: SessionDataDeletion,
    private readonly live: LiveAccessNotifier,
  ) {}

  async list(caller: AuthUser, email: string | undefined): Promise<Group[]> {
    requireOwnEmail(caller, email, 'You can only list your own groups.');
    const rows = await this.groups.find({
      where: { ownerId: caller.id },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toGroup);
  }

  async create(caller: AuthUser, input: { email?: string; title?: string }): Promise<Group> {
    requireOwnEmail(caller, input.email, 'You can only create groups for yourself.');
    const title = input.title ?? (await this.nextDefaultTitle(caller.id));
    return toGroup(await this.groups.save(this.groups.create({ ownerId: caller.id, title })));
  }

  async rename(caller: AuthUser, groupId: string, title: string): Promise<void> {
    await this.requireOwned(caller, groupId);
    await this.groups.update({ id: groupId }, { title });
  }

  async delete(caller: AuthUser, groupId: string): Promise<void> {
    await this.requireOwned(caller, groupId);
    await this.deleteGroups([groupId]);
  }

  /** The group, if the caller owns it: 404 when there is no such group, 403 when it is another's. */
  async requireOwned(caller: AuthUser, groupId: string): Promise<GroupEntity> {
    const group = await this.groups.findOneBy({ id: groupId });
    if (!group) throw notFound(GROUP_ACCESS_TEXTS.noGroup);
    if (group.ownerId !== caller.id) throw forbidden(GROUP_ACCESS_TEXTS.notYourGroup);
    return group;
  }

  /**
   * A group's sessions, oldest first (as getSessions lists them), for records' study export, with
   * whether `userId` owns the group; another researcher's group answers no sessions.
   */
  async sessionsFor(groupId: string, userId: string): Promise<GroupSessions> {
    const group = await this.groups.findOne({ select: { id: true, ownerId: true }, where: { id: groupId } });
    if (!group) return { exists: false, owner: false, sessionIds: [] };
    if (group.ownerId !== userId) return { exists: true, owner: false, sessionIds: [] };
    const rows = await this.db.getRepository(SessionEntity).find({
      select: { id: true },
      where: { groupId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return { exists: true, owner: true, sessionIds: rows.map((row) => row.id) };
  }

  idsOwnedBy(ownerId: string): Promise<string[]> {
    return this.groups
      .find({ select: { id: true }, where: { ownerId } })
      .then((rows) => rows.map((row) => row.id));
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
      const pending = (await this.sessionIdsOf(groupIds)).filter((id) => !cleaned.has(id));
      await this.sessionData.deleteDataOf(pending);
      pending.forEach((id) => cleaned.add(id));

      const deleted = await this.db.transaction(async (tx) => {
        await tx
          .getRepository(GroupEntity)
          .createQueryBuilder('g')
          .setLock('pessimistic_write')
          .where({ id: In([...groupIds]) })
          .getMany();
        const now = await tx.find(SessionEntity, {
          select: { id: true },
          where: { groupId: In([...groupIds]) },
        });
        if (now.some(({ id }) => !cleaned.has(id))) return false;
        await tx.delete(SessionEntity, { groupId: In([...groupIds]) });
        await tx.delete(GroupEntity, { id: In([...groupIds]) });
        return true;
      });
      if (deleted) {
        await this.live.changed([...cleaned], true);
        return;
      }
    }
    throw conflict('Sessions kept being added to this group while it was being deleted. Please try again.');
  }

  private async sessionIdsOf(groupIds: readonly string[]): Promise<string[]> {
    const rows = await this.db
      .getRepository(SessionEntity)
      .find({ select: { id: true }, where: { groupId: In([...groupIds]) } });
    return rows.map((row) => row.id);
  }

  private async nextDefaultTitle(ownerId: string): Promise<string> {
    const taken = await this.groups.find({
      select: { title: true },
      where: { ownerId, title: Like(`${DEFAULT_GROUP_TITLE}%`) },
    });
    return nextDefaultTitle(
      DEFAULT_GROUP_TITLE,
      taken.map((row) => row.title),
    );
  }
}
