import { randomBytes } from 'node:crypto';

/** Secrets a test service runs with (random, like a real deployment's). */
export const testSecrets = () => ({
  JWT_SECRET: randomBytes(32).toString('hex'),
  SERVICE_TOKEN: randomBytes(32).toString('hex'),
});
