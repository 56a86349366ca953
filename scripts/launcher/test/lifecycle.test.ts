import { Lifecycle, StopRequested } from '../src/lifecycle';
import { applyDefaults, embeddedEnvDefaults } from '../src/service-env';

describe('stopping what was started', () => {
  it('stops in reverse order, once, and a failing or stuck step does not stop the others', async () => {
    const log: string[] = [];
    const lifecycle = new Lifecycle((message) => log.push(message));
    const order: string[] = [];
    lifecycle.onStop('Postgres', () => void order.push('postgres'));
    lifecycle.onStop('the auth service', () => Promise.reject(new Error('pool already closed')));
    lifecycle.onStop(
      'the realtime service',
      () => new Promise<void>(() => order.push('realtime (stuck)')),
      50,
    );
    lifecycle.onStop('the API server', () => void order.push('api'));

    await Promise.all([lifecycle.stopAll(), lifecycle.stopAll()]);
    expect(order).toEqual(['api', 'realtime (stuck)', 'postgres']);
    expect(log).toEqual([
      'Stopping the realtime service: did not stop within 0.05 s',
      'Stopping the auth service: pool already closed',
    ]);
  });

  it('ends a start in progress at the next checkpoint once a stop is requested', async () => {
    const lifecycle = new Lifecycle(() => undefined);
    expect(() => lifecycle.throwIfStopRequested()).not.toThrow();
    lifecycle.requestStop('SIGINT');
    expect(() => lifecycle.throwIfStopRequested()).toThrow(StopRequested);
    await expect(lifecycle.stopRequested).resolves.toBe('SIGINT');
  });
});

describe('the environment the embedded mode gives the services', () => {
  const secrets = {
    JWT_SECRET: 'j'.repeat(64),
    SERVICE_TOKEN: 's'.repeat(64),
    POSTGRES_PASSWORD: 'p'.repeat(64),
    S3_ACCESS_KEY: 'a'.repeat(32),
    S3_SECRET_KEY: 'k'.repeat(64),
  };

  it('points every service URL at the dispatcher, and keeps what the person set', () => {
    const env: NodeJS.ProcessEnv = { PUBLIC_URL: 'https://uis.example.org', RESEARCHER_EMAILS: '' };
    applyDefaults(env, embeddedEnvDefaults({ apiPort: 8443, secrets, outboxDir: '/repo/.data/outbox' }));
    expect(env).toMatchObject({
      PUBLIC_URL: 'https://uis.example.org',
      RESEARCHER_EMAILS: '',
      JWT_SECRET: secrets.JWT_SECRET,
      SERVICE_TOKEN: secrets.SERVICE_TOKEN,
      OUTBOX_DIR: '/repo/.data/outbox',
      LOG_FORMAT: 'pretty',
      AUTH_URL: 'http://127.0.0.1:8443',
      STUDIES_URL: 'http://127.0.0.1:8443',
      REALTIME_URL: 'http://127.0.0.1:8443',
    });
    expect(env.POSTGRES_PASSWORD).toBeUndefined();
    const fresh: NodeJS.ProcessEnv = {};
    applyDefaults(fresh, embeddedEnvDefaults({ apiPort: 9443, secrets, outboxDir: '/o' }));
    expect(fresh).toMatchObject({ RESEARCHER_EMAILS: '*', PUBLIC_URL: 'http://localhost:9443' });
  });
});
