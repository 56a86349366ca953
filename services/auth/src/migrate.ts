import { runMigrations } from '@uis/kit';
import { authDatabase } from './auth.module';

/** `node dist/src/migrate.js`: auth's pending migrations, then exit (compose and Kubernetes run it first). */
void runMigrations('auth', authDatabase);
