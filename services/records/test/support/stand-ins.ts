import { Controller, type INestApplication } from '@nestjs/common';
import { Input, InternalEndpoint, defineService, serviceEnv } from '@uis/kit';
import {
  internalRoutes,
  type Action,
  type InternalAnswerOf,
  type ParsedInternalRequestOf,
  type Prompt,
} from '@uis/proto';

/**
 * Stand-in for content's prompt, action and video reads (the content endpoints records calls): served by the kit exactly as the real one will be (proto route, service-token guard),
 * answering from a table the test controls and failing on demand.
 */
export class ContentTable {
  readonly prompts = new Map<string, Prompt[]>();
  readonly actions = new Map<string, Action[]>();
  /** Each session's uploaded video's file name (none: no video). */
  readonly videos = new Map<string, string>();
  /** The next calls fail this many times. */
  failures = 0;
}

const table = new ContentTable();

@Controller()
class ContentStandIn {
  @InternalEndpoint(internalRoutes.contentListPrompts)
  prompts(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentListPrompts'>,
  ): InternalAnswerOf<'contentListPrompts'> {
    if (table.failures > 0) {
      table.failures--;
      throw new Error('content could not list prompts');
    }
    return { prompts: table.prompts.get(sessionId) ?? [] };
  }

  @InternalEndpoint(internalRoutes.contentSessionVideo)
  video(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentSessionVideo'>,
  ): InternalAnswerOf<'contentSessionVideo'> {
    return { name: table.videos.get(sessionId) ?? null };
  }

  @InternalEndpoint(internalRoutes.contentListActions)
  actions(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentListActions'>,
  ): InternalAnswerOf<'contentListActions'> {
    return { actions: table.actions.get(sessionId) ?? [] };
  }
}

const contentStandIn = defineService({
  name: 'content',
  env: serviceEnv,
  imports: () => [{ module: class ContentStandInModule {}, controllers: [ContentStandIn] }],
});

export interface ContentStandInServer {
  table: ContentTable;
  url: string;
  app: INestApplication;
}

/** The stand-in listening on loopback, with the secrets records runs with. */
export async function startContentStandIn(secrets: Record<string, string>): Promise<ContentStandInServer> {
  const app = await contentStandIn.createApp({ ...secrets, LOG_LEVEL: 'silent' });
  await app.listen(0, '127.0.0.1');
  table.prompts.clear();
  table.actions.clear();
  table.videos.clear();
  table.failures = 0;
  return { table, app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}
