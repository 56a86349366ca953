import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { signUp, startComposedStack, type ComposedStack } from './support/composed-stack';

/**
 * The probe's finding: access tokens stayed valid for up to 15 minutes after logout, a replayed
 * refresh token and account deletion (a deleted researcher created a group owned by nobody). Now
 * every service refuses them at once, whatever service the request reaches.
 */
describe('revoked access, across the services', () => {
  let stack: ComposedStack;
  beforeAll(async () => {
    stack = await startComposedStack('revocation');
  }, 60_000);
  afterAll(() => stack?.close());

  /** One read and one change in each REST service, as the holder of `token`. */
  const everywhere = async (token: string) => [
    (await stack.api.call('getUserFromToken', {}, token)).status,
    (await stack.api.call('getGroups', {}, token)).status,
    (await stack.api.call('createGroup', { title: 'After' }, token)).status,
    (await stack.api.call('getParticipantSessions', {}, token)).status,
    // A session of nobody's: 404 once signal has let the token through (401 before).
    (await stack.api.call('getCallSettings', { sessionId: randomUUID() }, token)).status,
  ];

  it('logout ends the access token of that login at once, and only that login', async () => {
    const ada = await signUp(stack, 'ada@revoke.test', 'Ada', 'researcher');
    const otherDevice = await stack.api.ok('getAccessTokenFromRefreshToken', {
      refreshToken: ada.refreshToken,
    });
    const laptop = await signUp(stack, 'bo@revoke.test', 'Bo', 'researcher');
    expect(await everywhere(otherDevice.accessToken)).toEqual([200, 200, 200, 200, 404]);
    await stack.api.ok('logout', { refreshToken: otherDevice.refreshToken });
    expect(await everywhere(otherDevice.accessToken)).toEqual([401, 401, 401, 401, 401]);
    expect(await everywhere(laptop.token)).toEqual([200, 200, 200, 200, 404]);
  });

  it('a replayed refresh token ends its whole login', async () => {
    const cy = await signUp(stack, 'cy@revoke.test', 'Cy', 'researcher');
    const next = await stack.api.ok('getAccessTokenFromRefreshToken', { refreshToken: cy.refreshToken });
    // The old refresh token again: someone copied it. The login's tokens all end.
    expect(
      (await stack.api.call('getAccessTokenFromRefreshToken', { refreshToken: cy.refreshToken })).status,
    ).toBe(401);
    expect(await everywhere(next.accessToken)).toEqual([401, 401, 401, 401, 401]);
  });

  it('a deleted account can do nothing more with the token it held (no group owned by nobody)', async () => {
    const dee = await signUp(stack, 'dee@revoke.test', 'Dee', 'researcher');
    await stack.api.ok('deleteUser', { email: dee.user.email }, dee.token);
    const created = await stack.api.call('createGroup', { title: 'Orphan' }, dee.token);
    expect(created.status).toBe(401);
    expect(created.error?.message).toBe('Your session has ended. Please sign in again.');
    expect(await countGroupsNamed('Orphan')).toBe(0);
    const message = await stack.api.call('addMessage', { sessionId: randomUUID(), message: 'x' }, dee.token);
    expect(message.status).toBe(401);
  });

  async function countGroupsNamed(title: string): Promise<number> {
    const client = new Client({ connectionString: stack.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM studies.groups WHERE title = $1', [
        title,
      ]);
      return (rows[0] as { n: number }).n;
    } finally {
      await client.end();
    }
  }
});
