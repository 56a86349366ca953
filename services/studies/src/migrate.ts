import { runMigrations } from '@uis/kit';
import { studiesDatabase } from './studies.module';

/** `node dist/src/migrate.js`: studies's pending migrations, then exit (compose and Kubernetes run it first). */
void runMigrations('studies', studiesDatabase);
