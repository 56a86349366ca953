import { runStandalone } from '@uis/kit';
import { recordsService } from './records.service-definition';

void runStandalone(recordsService);
