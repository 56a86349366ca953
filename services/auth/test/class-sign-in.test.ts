import { recipientsOf } from '@uis/mailer/testing';
import { SignInLimiter } from '../src/sign-in/sign-in-limiter';
import { startAuth, type AuthHarness } from './auth-harness';

/**
 * A whole class signs in at once from behind one campus address (NAT): every student gets a link
 * within seconds, while one inbox still gets only a few and one address only so many in an hour.
 */

const CLASS = 500;

const ask = (h: AuthHarness, destination: string, from?: string) => {
  const req = h.http().post('/auth/magiclogin');
  if (from) void req.set('x-forwarded-for', from);
  return req.send({ destination });
};

describe('a class signing in from one address, with the default limits', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    // The service as deployed without a proxy in front: no X-Forwarded-For is believed.
    h = await startAuth('class_sign_in', { TRUST_PROXY: 'false' });
  });
  afterAll(() => h.close());

  it(`admits ${CLASS} distinct students within a minute, and every one gets the mail`, async () => {
    const began = Date.now();
    const emails = Array.from({ length: CLASS }, (_, i) => `student${i}@campus.test`);
    const statuses: number[] = [];
    // As a class does: many at once (10 in flight), not one after the other.
    for (let i = 0; i < emails.length; i += 10) {
      const batch = await Promise.all(emails.slice(i, i + 10).map((email) => ask(h, email)));
      statuses.push(...batch.map((res) => res.status));
    }
    expect(Date.now() - began).toBeLessThan(60_000);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await h.smtp.waitForMail(() => h.smtp.mails.length >= CLASS, 60_000);
    const arrived = new Set(h.smtp.mails.flatMap((mail) => recipientsOf(mail)));
    expect(emails.filter((email) => !arrived.has(email))).toEqual([]);
  }, 120_000);

  it('still sends one inbox at most 5 links per window', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await ask(h, 'eager@campus.test')).status);
    expect(answers.filter((status) => status === 200)).toHaveLength(5);
    expect(answers.slice(5)).toEqual([429, 429, 429]);
  });

  it('keys the limits on the real address: an X-Forwarded-For from a caller that is no named proxy changes nothing', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await ask(h, 'spoofer@campus.test', `10.66.0.${i}`)).status);
    // Each spoofed "address" would have a fresh budget; the inbox limit shows they are one caller's.
    expect(answers.filter((status) => status === 200)).toHaveLength(5);
  });
});

describe('an address past its hourly cap', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuth('sign_in_cap', {
      TRUST_PROXY: 'loopback',
      SIGN_IN_LIMIT_PER_ADDRESS_PER_HOUR: '20',
    });
  });
  afterAll(() => h.close());

  it('is refused, counted and logged; what it asked for keeps its own budget', async () => {
    const spray = '198.51.100.7';
    for (let i = 0; i < 20; i++) expect((await ask(h, `inbox${i}@spray.test`, spray)).status).toBe(200);
    const refused = await ask(h, 'victim@spray.test', spray);
    expect(refused.status).toBe(429);
    expect(refused.body.res.message).toMatch(
      /^Too many sign-in requests\. Please wait \d+ minutes? and try again\.$/,
    );
    // The refused request spent nothing of the victim's inbox budget: from elsewhere it gets all 5.
    const fromElsewhere = [];
    for (let i = 0; i < 6; i++)
      fromElsewhere.push((await ask(h, 'victim@spray.test', `203.0.113.${i}`)).status);
    expect(fromElsewhere).toEqual([200, 200, 200, 200, 200, 429]);
    // And the inbox limit refusing spends nothing of the address's: another inbox from the same place goes.
    expect((await ask(h, 'other@spray.test', '203.0.113.1')).status).toBe(200);
    const limiter = h.app.get(SignInLimiter);
    expect(limiter.refused['address-hour']).toBe(1);
    expect(limiter.refused.email).toBe(1);
  });
});
