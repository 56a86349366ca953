import { messageIdFor, smtpPoolOptions } from './mail.transport';

const pool = { SMTP_POOL_CONNECTIONS: 5, SMTP_POOL_MESSAGES: 100, MAIL_RATE_PER_SECOND: undefined };

describe('smtpPoolOptions', () => {
  it('pools connections with our timeouts and no resend of its own on a lost connection', () => {
    expect(smtpPoolOptions({ ...pool, SMTP_URL: 'smtps://user:p%40ss@mail.example.org:465' })).toEqual({
      pool: true,
      maxConnections: 5,
      maxMessages: 100,
      maxRequeues: 0,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      getSocket: expect.any(Function),
      secure: true,
      host: 'mail.example.org',
      port: 465,
      auth: { user: 'user', pass: 'p@ss' },
    });
  });

  it('lets the URL override any option', () => {
    const options = smtpPoolOptions({
      ...pool,
      SMTP_URL: 'smtp://relay:587?socketTimeout=60000&maxConnections=2&tls.rejectUnauthorized=false',
    });
    expect(options).toMatchObject({
      socketTimeout: 60_000,
      maxConnections: 2,
      tls: { rejectUnauthorized: false },
    });
  });

  it('caps the rate in the pool only when asked (the in-process queue)', () => {
    const config = { ...pool, MAIL_RATE_PER_SECOND: 0.5, SMTP_URL: 'smtp://relay:25' };
    expect(smtpPoolOptions(config)).not.toHaveProperty('rateLimit');
    expect(smtpPoolOptions(config, { poolRateLimit: true })).toMatchObject({
      rateLimit: 1,
      rateDelta: 2000,
      maxConnections: 1,
    });
  });
});

describe('messageIdFor', () => {
  it("is stable per request and in the sender's domain", () => {
    const id = messageIdFor('r1', 'User Interaction Simulator <no-reply@mail.example.org>');
    expect(id).toMatch(/^<[0-9a-f]{32}@mail\.example\.org>$/);
    expect(messageIdFor('r1', 'no-reply@mail.example.org')).toBe(id);
    expect(messageIdFor('r2', 'no-reply@mail.example.org')).not.toBe(id);
  });
});
