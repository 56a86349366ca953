import { z } from 'zod';
import { ConfigError, envVars, loadConfig, serviceEnv, serviceUrl } from '../src';

const good = { JWT_SECRET: 'x'.repeat(32), SERVICE_TOKEN: 'y'.repeat(32) };

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig(serviceEnv, good);
    expect(config.PUBLIC_URL).toBe('http://localhost:8443');
    expect(serviceUrl(config, 'studies')).toBe('http://127.0.0.1:3002');
  });

  it('names every missing or bad variable', () => {
    const schema = serviceEnv.extend({ DATABASE_URL: envVars.databaseUrl(), PORT: envVars.port(3000) });
    let error: unknown;
    try {
      loadConfig(schema, { SERVICE_TOKEN: 'short', DATABASE_URL: 'mysql://nope', PORT: 'eighty' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('JWT_SECRET: is required');
    expect(message).toContain('SERVICE_TOKEN: must be at least 32 characters');
    expect(message).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(message).toContain('PORT:');
  });

  it('reads flags strictly', () => {
    const schema = z.object({ ON: envVars.flag(false) });
    expect(loadConfig(schema, { ON: 'true' }).ON).toBe(true);
    expect(loadConfig(schema, {}).ON).toBe(false);
    expect(() => loadConfig(schema, { ON: 'yes please' })).toThrow('ON: must be true or false');
  });
});
