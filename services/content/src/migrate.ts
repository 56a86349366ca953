import { runMigrations } from '@uis/kit';
import { contentDatabase } from './content.module';

/** `node dist/src/migrate.js`: content's pending migrations, then exit (compose and Kubernetes run it first). */
void runMigrations('content', contentDatabase);
