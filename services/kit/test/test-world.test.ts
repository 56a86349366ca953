import { EVERYONE } from '@uis/proto';
import { verifyAccessToken } from '../src';
import { CAST, scopeOf, testSecrets, testWorld } from '../src/testing';

describe('the test world every harness extends', () => {
  const { JWT_SECRET } = testSecrets();
  const world = testWorld({ jwtSecret: JWT_SECRET });

  it('signs in the cast with the services’ secret: user, token and the header that carries it', () => {
    for (const name of Object.keys(CAST) as (keyof typeof CAST)[]) {
      const person = world.as(name);
      expect(person.user).toMatchObject(CAST[name]);
      expect(person.headers).toEqual({ authorization: `Bearer ${person.token}` });
      expect(verifyAccessToken(JWT_SECRET, person.token)?.user).toEqual(person.user);
      expect(world.users[name]).toBe(person.user);
    }
  });

  it('calls as nobody for anonymous: no user, no token, no header', () => {
    expect(world.as('anonymous')).toEqual({ user: null, token: null, headers: {} });
  });

  it('makes someone new each time, named after an e-mail given alone', () => {
    const [one, two] = [world.person('participant'), world.person('participant')];
    expect(one.user.id).not.toBe(two.user.id);
    expect(world.person('researcher', { email: 'ada@lab.test' }).user).toMatchObject({
      name: 'ada',
      email: 'ada@lab.test',
      type: 'researcher',
    });
  });

  it('signs someone in again with a token of the given lifetime', () => {
    const expired = world.signIn(world.users.participant, -1);
    expect(expired.user).toBe(world.users.participant);
    expect(verifyAccessToken(JWT_SECRET, expired.token)).toBeNull();
  });

  it('takes a scope as people or e-mails, and null as everyone', () => {
    expect(scopeOf([world.as('participant'), 'x@uni.test'])).toEqual(['pat@uni.test', 'x@uni.test']);
    expect(scopeOf(null)).toBe(EVERYONE);
    expect(scopeOf(EVERYONE)).toBe(EVERYONE);
  });

  it('says so when a harness without studies is asked for a session', async () => {
    await expect(world.session()).rejects.toThrow(/no studies/);
  });
});
