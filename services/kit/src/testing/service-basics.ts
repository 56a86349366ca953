import request from 'supertest';
import { ConfigError } from '../config';
import type { ServiceDefinition } from '../service-app';
import { testSecrets } from './secrets';

/**
 * What every service must do, whatever else it does: boot from its env, answer /health and /ready
 * with the envelope, and refuse to start without its secrets, naming them. Call inside a test file.
 */
export function describeServiceBasics(definition: ServiceDefinition, env: NodeJS.ProcessEnv = {}): void {
  describe(`${definition.name} service basics`, () => {
    it('boots from its env and answers /health and /ready with the envelope', async () => {
      const app = await definition.createApp({ ...testSecrets(), LOG_LEVEL: 'silent', ...env });
      const server = app.getHttpServer() as Parameters<typeof request>[0];
      try {
        const health = await request(server).get('/health').expect(200);
        expect(health.body).toEqual({
          status: 'SUCCESS',
          res: { service: definition.name, uptimeSeconds: expect.any(Number) as number },
        });
        await request(server).get('/ready').expect(200);
      } finally {
        await app.close();
      }
    });

    it('refuses to start without its secrets, naming them', async () => {
      const started = definition.createApp({ LOG_LEVEL: 'silent', ...env });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(/JWT_SECRET[\s\S]*SERVICE_TOKEN/);
    });
  });
}
