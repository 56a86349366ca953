import { Module, type DynamicModule } from '@nestjs/common';
import { DatabaseModule } from '@uis/kit';
import { ActionEntity } from './actions/action.entity';
import { ActionsModule } from './actions/actions.module';
import { CONTENT_CONFIG, type ContentConfig } from './content.config';
import { CreateContentTables1763856000000 } from './migrations/1763856000000-create-content-tables';
import { AddVideoOwner1795440000000 } from './migrations/1795440000000-add-video-owner';
import { PromptEntity } from './prompts/prompt.entity';
import { PromptsModule } from './prompts/prompts.module';
import { SessionDataModule } from './session-data/session-data.module';
import { VideoEntity } from './videos/video.entity';
import { VideosModule } from './videos/videos.module';

/** In the order they run. */
export const CONTENT_MIGRATIONS = [CreateContentTables1763856000000, AddVideoOwner1795440000000];
export const CONTENT_SCHEMA = 'content';

/** Content's tables: its schema, entities and migrations (the module and the migrate entry). */
export const contentDatabase = () => ({
  schema: CONTENT_SCHEMA,
  entities: [ActionEntity, PromptEntity, VideoEntity],
  migrations: CONTENT_MIGRATIONS,
});

/** The validated environment, for every feature module. */
const configModule = (config: ContentConfig): DynamicModule => ({
  module: class ContentConfigModule {},
  global: true,
  providers: [{ provide: CONTENT_CONFIG, useValue: config }],
  exports: [CONTENT_CONFIG],
});

/** The database and content's features, each a module of its own. */
@Module({})
export class ContentModule {
  static forRoot(config: ContentConfig): DynamicModule {
    return {
      module: ContentModule,
      imports: [
        configModule(config),
        DatabaseModule.forService({
          ...contentDatabase(),
          url: config.DATABASE_URL,
          migrateOnStart: config.MIGRATE_ON_START,
        }),
        ActionsModule,
        PromptsModule,
        VideosModule,
        SessionDataModule,
      ],
    };
  }
}
