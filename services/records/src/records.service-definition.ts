import { defineService } from '@uis/kit';
import { recordsEnv } from './records.config';
import { RecordsModule } from './records.module';

/** Chat messages and pixel clicks: review, edits, CSV export, appends from realtime. */
export const recordsService = defineService({
  name: 'records',
  env: recordsEnv,
  imports: (config) => [RecordsModule.forRoot(config)],
});
