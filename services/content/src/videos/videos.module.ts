import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONTENT_CONFIG, type ContentConfig } from '../content.config';
import { AssetsController } from './assets.controller';
import { AssetsService } from './assets.service';
import { ObjectStore } from './object-store';
import { UploadSlots } from './upload-slots';
import { VideoEntity } from './video.entity';
import { VideosController } from './videos.controller';
import { VideosInternalController } from './videos.internal.controller';
import { VideosRepository } from './videos.repository';
import { VideosService } from './videos.service';
import { VideosStartup } from './videos.startup';

/** A session's one video: uploads, the object store, serving its bytes. */
@Module({
  imports: [TypeOrmModule.forFeature([VideoEntity])],
  controllers: [VideosController, AssetsController, VideosInternalController],
  providers: [
    {
      provide: ObjectStore,
      inject: [CONTENT_CONFIG],
      useFactory: (config: ContentConfig) =>
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
      inject: [CONTENT_CONFIG],
      useFactory: (config: ContentConfig) =>
        new UploadSlots({ perUser: config.UPLOADS_PER_USER, total: config.UPLOADS_MAX }),
    },
    VideosStartup,
    VideosRepository,
    VideosService,
    AssetsService,
  ],
  exports: [VideosRepository, VideosService],
})
export class VideosModule {}
