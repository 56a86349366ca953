import { runStandalone } from '@uis/kit';
import { studiesService } from './studies.service-definition';

void runStandalone(studiesService);
