import { runStandalone } from '@uis/kit';
import { authService } from './auth.service-definition';

void runStandalone(authService);
