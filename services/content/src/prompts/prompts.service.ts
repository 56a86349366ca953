import { Injectable } from '@nestjs/common';
import { SessionAccessClient, conflict, notFound, type AuthUser } from '@uis/kit';
import { formatClockTime, type ParsedRequestOf, type Prompt } from '@uis/proto';
import { PromptSecondTaken, PromptsRepository } from './prompts.repository';

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
    private readonly prompts: PromptsRepository,
    private readonly access: SessionAccessClient,
  ) {}

  async list(user: AuthUser, sessionId: string): Promise<Prompt[]> {
    await this.access.requireOwner(user, sessionId);
    return this.prompts.listBySession(sessionId);
  }

  /** By time: the order the player meets them in. No access check: for internal callers. */
  listBySession(sessionId: string): Promise<Prompt[]> {
    return this.prompts.listBySession(sessionId);
  }

  async add(user: AuthUser, input: ParsedRequestOf<'addPrompt'>): Promise<Prompt> {
    await this.access.requireOwner(user, input.sessionId);
    const { time, duration, prompt } = input;
    try {
      return await this.prompts.add(input.sessionId, { time, duration, prompt });
    } catch (error) {
      throw error instanceof PromptSecondTaken ? sameSecond(time) : error;
    }
  }

  async edit(user: AuthUser, input: ParsedRequestOf<'editPrompt'>): Promise<void> {
    await this.requireOwned(user, input.promptId);
    const { time, duration, prompt } = input;
    try {
      await this.prompts.update(input.promptId, { time, duration, prompt });
    } catch (error) {
      throw error instanceof PromptSecondTaken && time !== undefined ? sameSecond(time) : error;
    }
  }

  async delete(user: AuthUser, promptId: string): Promise<void> {
    await this.requireOwned(user, promptId);
    await this.prompts.delete(promptId);
  }

  /** The prompt exists (404) and the caller owns its session (403). */
  private async requireOwned(user: AuthUser, promptId: string): Promise<void> {
    const sessionId = await this.prompts.sessionOf(promptId);
    if (sessionId === null) throw notFound('No such prompt.');
    await this.access.requireOwner(user, sessionId);
  }
}
