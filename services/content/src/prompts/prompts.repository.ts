import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PG_ERRORS, pgErrorCode } from '@uis/kit';
import type { Prompt } from '@uis/proto';
import { In, QueryFailedError, type EntityManager, type Repository } from 'typeorm';
import { definedOnly } from '../defined-only';
import { PromptEntity } from './prompt.entity';

/** What a prompt is made of, besides its session (seconds). */
export interface PromptFields {
  time: number;
  duration: number;
  prompt: string;
}

/** An add or an edit that would put a second prompt at a start second of the session. */
export class PromptSecondTaken extends Error {
  constructor() {
    super('a prompt already starts at that second of the session');
  }
}

const toPrompt = (row: PromptEntity): Prompt => ({
  prompt_id: row.id,
  time: row.timeSeconds,
  duration: row.durationSeconds,
  prompt: row.prompt,
});

const toColumns = (fields: Partial<PromptFields>): Partial<PromptEntity> =>
  definedOnly({ timeSeconds: fields.time, durationSeconds: fields.duration, prompt: fields.prompt });

const SAME_SECOND_CONSTRAINT = 'prompts_session_time_key';

/** The unique (session, second) constraint's violation as PromptSecondTaken; anything else as it is. */
const sameSecondAsTyped = (error: unknown): unknown =>
  error instanceof QueryFailedError &&
  pgErrorCode(error) === PG_ERRORS.uniqueViolation &&
  (error.driverError as { constraint?: string }).constraint === SAME_SECOND_CONSTRAINT
    ? new PromptSecondTaken()
    : error;

/** The prompts table: every read and write of it, and its row mapper. */
@Injectable()
export class PromptsRepository {
  constructor(@InjectRepository(PromptEntity) private readonly prompts: Repository<PromptEntity>) {}

  /** A session's prompts by time: the order the player meets them in. */
  async listBySession(sessionId: string): Promise<Prompt[]> {
    const rows = await this.prompts.find({ where: { sessionId }, order: { timeSeconds: 'ASC' } });
    return rows.map(toPrompt);
  }

  /** Throws PromptSecondTaken when the session has a prompt at that second. */
  async add(sessionId: string, fields: PromptFields): Promise<Prompt> {
    try {
      return toPrompt(await this.prompts.save(this.prompts.create({ sessionId, ...toColumns(fields) })));
    } catch (error) {
      throw sameSecondAsTyped(error);
    }
  }

  /** The session a prompt belongs to, or null when there is no such prompt. */
  async sessionOf(promptId: string): Promise<string | null> {
    const row = await this.prompts.findOne({ select: { sessionId: true }, where: { id: promptId } });
    return row?.sessionId ?? null;
  }

  /** Changes the fields given; throws PromptSecondTaken when that moves it onto a taken second. */
  async update(promptId: string, fields: Partial<PromptFields>): Promise<void> {
    try {
      await this.prompts.update({ id: promptId }, toColumns(fields));
    } catch (error) {
      throw sameSecondAsTyped(error);
    }
  }

  async delete(promptId: string): Promise<void> {
    await this.prompts.delete({ id: promptId });
  }

  /** Every prompt of these sessions, inside `tx` (ContentTransactions) when given. */
  async deleteSessions(sessionIds: readonly string[], tx?: EntityManager): Promise<void> {
    await (tx ?? this.prompts.manager).delete(PromptEntity, { sessionId: In([...sessionIds]) });
  }
}
