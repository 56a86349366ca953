import fs from 'node:fs';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { LOGGER, Readiness, type Logger } from '@uis/kit';
import { CONTENT_CONFIG, type ContentConfig } from '../content.config';
import { ObjectStore } from './object-store';

/**
 * The spool directory and the bucket are created at start when they are missing; if the object store is not up yet the service
 * still starts, /ready says why, and the next probe or upload tries again.
 */
@Injectable()
export class VideosStartup implements OnModuleInit {
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
