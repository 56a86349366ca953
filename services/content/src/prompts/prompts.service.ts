import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PG_ERRORS, SessionAccessClient, conflict, notFound, pgErrorCode, type AuthUser } from '@uis/kit';
import { formatClockTime, type ParsedRequestOf, type Prompt } from '@uis/proto';
import { QueryFailedError, type Repository } from 'typeorm';
import { definedOnly } from '../defined-only';
import { PromptEntity } from './prompt.entity';

const toPrompt = (row: PromptEntity): Prompt => ({
  prompt_id: row.id,
  time: row.timeSeconds,
  duration: row.durationSeconds,
  prompt: row.prompt,
});

const SAME_SECOND_CONSTRAINT = 'prompts_session_time_key';
const isSameSecond = (error: unknown) =>
  error instanceof QueryFailedError &&
  pgErrorCode(error) === PG_ERRORS.uniqueViolation &&
  (error.driverError as { constraint?: string }).constraint === SAME_SECOND_CONSTRAINT;

/**
 * Prompts are keyed by their start second (spec section 3): the player fires the prompt of each whole
 * second once, so two prompts at one second could not both fire. A second one is a 409 naming the
 * time, and the researcher edits the prompt already there instead.
 */
const sameSecond = (seconds: number) =>
  conflict(`A prompt already starts at ${formatClockTime(seconds)} in this session.`);

/** A session's timed prompts. Only its owner reads them: the researcher's player fires them. */
@Injectable()
export class PromptsService {
  constructor(
    @InjectRepository(PromptEntity) private readonly prompts: Repository<PromptEntity>,
    private readonly access: SessionAccessClient,
  ) {}

  async list(user: AuthUser, sessionId: string): Promise<Prompt[]> {
    await this.access.requireOwner(user, sessionId);
    return this.listBySession(sessionId);
  }

  /** By time: the order the player meets them in. No access check: for internal callers. */
  async listBySession(sessionId: string): Promise<Prompt[]> {
    const rows = await this.prompts.find({ where: { sessionId }, order: { timeSeconds: 'ASC' } });
    return rows.map(toPrompt);
  }

  async add(user: AuthUser, input: ParsedRequestOf<'addPrompt'>): Promise<Prompt> {
    await this.access.requireOwner(user, input.sessionId);
    try {
      const row = await this.prompts.save(
        this.prompts.create({
          sessionId: input.sessionId,
          timeSeconds: input.time,
          durationSeconds: input.duration,
          prompt: input.prompt,
        }),
      );
      return toPrompt(row);
    } catch (error) {
      throw isSameSecond(error) ? sameSecond(input.time) : error;
    }
  }

  async edit(user: AuthUser, input: ParsedRequestOf<'editPrompt'>): Promise<void> {
    const row = await this.findOwned(user, input.promptId);
    try {
      await this.prompts.update(
        { id: row.id },
        definedOnly({ timeSeconds: input.time, durationSeconds: input.duration, prompt: input.prompt }),
      );
    } catch (error) {
      throw isSameSecond(error) && input.time !== undefined ? sameSecond(input.time) : error;
    }
  }

  async delete(user: AuthUser, promptId: string): Promise<void> {
    const row = await this.findOwned(user, promptId);
    await this.prompts.delete({ id: row.id });
  }

  /** The prompt, if it exists (404) and the caller owns its session (403). */
  private async findOwned(user: AuthUser, promptId: string): Promise<PromptEntity> {
    const row = await this.prompts.findOneBy({ id: promptId });
    if (!row) throw notFound('No such prompt.');
    await this.access.requireOwner(user, row.sessionId);
    return row;
  }
}
