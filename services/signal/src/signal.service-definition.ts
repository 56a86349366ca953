import { defineService } from '@uis/kit';
import { PeerSignalling } from './peer/peer-signalling';
import { signalEnv } from './signal.config';
import { SignalModule } from './signal.module';

/**
 * The chat call's signalling: PeerJS on :9001 at /stream (mounted on the app's own HTTP server by
 * the configure step, so standalone, `npm start` and tests all get it), and /getCallSettings.
 */
export const signalService = defineService({
  name: 'signal',
  env: signalEnv,
  imports: (config) => [SignalModule.forRoot(config)],
  configure: (app) => app.get(PeerSignalling).mount(app),
});
