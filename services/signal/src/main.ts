import { runStandalone } from '@uis/kit';
import { signalService } from './signal.service-definition';

void runStandalone(signalService);
