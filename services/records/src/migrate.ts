import { runMigrations } from '@uis/kit';
import { recordsDatabase } from './records.module';

/** `node dist/src/migrate.js`: records's pending migrations, then exit (compose and Kubernetes run it first). */
void runMigrations('records', recordsDatabase);
