import { loadConfig } from '@uis/kit';
import { testSecrets } from '@uis/kit/testing';
import { realtimeEnv } from './realtime.config';

const load = (env: Record<string, string>) => loadConfig(realtimeEnv, { ...testSecrets(), ...env });

describe('realtime configuration', () => {
  it('allows the product’s own origin and the Vite dev server by default', () => {
    expect(load({ PUBLIC_URL: 'https://uis.example.org/app' }).allowedOrigins).toEqual([
      'https://uis.example.org',
      'http://localhost:5173',
      'http://127.0.0.1:5173',
    ]);
  });

  it('allows the loopback twin of a local default (localhost and 127.0.0.1 are the same machine)', () => {
    expect(load({ PUBLIC_URL: 'http://localhost:8443' }).allowedOrigins).toEqual([
      'http://localhost:8443',
      'http://127.0.0.1:8443',
      'http://localhost:5173',
      'http://127.0.0.1:5173',
    ]);
  });

  it('takes ALLOWED_ORIGINS as a comma-separated list of origins instead', () => {
    expect(load({ ALLOWED_ORIGINS: 'https://a.example, http://b.example:8080/ ' }).allowedOrigins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
  });

  it('refuses an origin with a path, another scheme, or an empty list, naming the variable', () => {
    for (const value of ['https://a.example/app', 'ws://a.example', '*', ' , ']) {
      expect(() => load({ ALLOWED_ORIGINS: value })).toThrow(/ALLOWED_ORIGINS/);
    }
  });

  it('uses the streams adapter unless told otherwise, and checks the Redis settings', () => {
    expect(load({}).REDIS_ADAPTER).toBe('streams');
    expect(load({ REDIS_ADAPTER: 'pubsub' }).REDIS_ADAPTER).toBe('pubsub');
    expect(() => load({ REDIS_ADAPTER: 'kafka' })).toThrow(/REDIS_ADAPTER: must be streams or pubsub/);
    expect(() => load({ REDIS_URL: 'http://redis' })).toThrow(/REDIS_URL/);
    expect(() => load({ REDIS_PREFIX: 'has space' })).toThrow(/REDIS_PREFIX/);
  });
});
