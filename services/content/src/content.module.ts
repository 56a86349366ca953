import fs from 'node:fs';
import { Inject, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule, LOGGER, Readiness, type Logger } from '@uis/kit';
import { ActionEntity } from './actions/action.entity';
import { ActionsController } from './actions/actions.controller';
import { ActionsService } from './actions/actions.service';
import { CONTENT_CONFIG, type ContentConfig } from './content.config';
import { CreateContentTables1763856000000 } from './migrations/1763856000000-create-content-tables';
import { AddVideoOwner1795440000000 } from './migrations/1795440000000-add-video-owner';
import { PromptEntity } from './prompts/prompt.entity';
import { PromptsController } from './prompts/prompts.controller';
import { PromptsService } from './prompts/prompts.service';
import { SessionDataController } from './session-data/session-data.controller';
import { SessionDataService } from './session-data/session-data.service';
import { AssetsController } from './videos/assets.controller';
import { AssetsService } from './videos/assets.service';
import { ObjectStore } from './videos/object-store';
import { UploadSlots } from './videos/upload-slots';
import { VideoEntity } from './videos/video.entity';
import { VideosController } from './videos/videos.controller';
import { VideosService } from './videos/videos.service';

const entities = [ActionEntity, PromptEntity, VideoEntity];
/** In the order they run. */
export const CONTENT_MIGRATIONS = [CreateContentTables1763856000000, AddVideoOwner1795440000000];
export const CONTENT_SCHEMA = 'content';

/** Content's tables: its schema, entities and migrations (the module and the migrate entry). */
export const contentDatabase = () => ({ schema: CONTENT_SCHEMA, entities, migrations: CONTENT_MIGRATIONS });

/**
 * The spool directory and the bucket are created at start when they are missing; if the object store is not up yet the service
 * still starts, /ready says why, and the next probe or upload tries again.
 */
class ContentStartup implements OnModuleInit {
  constructor(
    private readonly store: ObjectStore,
    private readonly readiness: Readiness,
    @Inject(CONTENT_CONFIG) private readonly config: ContentConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit() {
    // Uploads are spooled here; a missing directory would fail the first upload, not the start.
    await fs.promises.mkdir(this.config.UPLOAD_TMP_DIR, { recursive: true });
    this.readiness.add('object store', () => this.store.probe());
    await this.store.ensureBucket().catch((error: unknown) => {
      this.logger.warn({ err: error, bucket: this.store.bucket }, 'object store not reachable yet');
    });
  }
}

@Module({})
export class ContentModule {
  static forRoot(config: ContentConfig): DynamicModule {
    return {
      module: ContentModule,
      imports: [
        DatabaseModule.forService({
          ...contentDatabase(),
          url: config.DATABASE_URL,
          migrateOnStart: config.MIGRATE_ON_START,
        }),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [
        ActionsController,
        PromptsController,
        VideosController,
        AssetsController,
        SessionDataController,
      ],
      providers: [
        { provide: CONTENT_CONFIG, useValue: config },
        {
          provide: ObjectStore,
          useFactory: () =>
            new ObjectStore({
              endpoint: config.S3_ENDPOINT,
              accessKey: config.S3_ACCESS_KEY,
              secretKey: config.S3_SECRET_KEY,
              bucket: config.S3_BUCKET,
              region: config.S3_REGION,
            }),
        },
        {
          provide: UploadSlots,
          useFactory: () => new UploadSlots({ perUser: config.UPLOADS_PER_USER, total: config.UPLOADS_MAX }),
        },
        ContentStartup,
        ActionsService,
        PromptsService,
        VideosService,
        AssetsService,
        SessionDataService,
      ],
    };
  }
}
