import { runStandalone } from '@uis/kit';
import { contentService } from './content.service-definition';

void runStandalone(contentService);
