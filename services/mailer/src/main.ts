import { runStandalone } from '@uis/kit';
import { mailerService } from './mailer.service-definition';

void runStandalone(mailerService);
