import { defineService } from '@uis/kit';
import { realtimeEnv } from './realtime.config';
import { RealtimeModule } from './realtime.module';
import { RealtimeIoAdapter } from './transport/realtime-io.adapter';

export { realtimeEnv } from './realtime.config';

/**
 * The live-session protocol: socket.io (path /socket.io/, WebSocket only) on the app's own HTTP
 * server, :9000 when it runs alone or under `npm start`, beside /health and /ready.
 */
export const realtimeService = defineService({
  name: 'realtime',
  env: realtimeEnv,
  imports: (config) => [RealtimeModule.forRoot(config)],
  configure: (app, config, logger) => {
    app.useWebSocketAdapter(new RealtimeIoAdapter(app, config, logger));
  },
});
