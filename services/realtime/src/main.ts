import { runStandalone } from '@uis/kit';
import { realtimeService } from './realtime.service-definition';

void runStandalone(realtimeService);
