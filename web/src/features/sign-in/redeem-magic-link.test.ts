import { describe, expect, it } from 'vitest';
import { redeemMagicLink } from './redeem-magic-link';
import { fakeApi, ok, refused } from '../../testing/fake-api';

describe('redeemMagicLink', () => {
  it('trades the link for tokens once, even when asked twice at the same time', async () => {
    // The tokens arrive as HttpOnly cookies; the body is not kept.
    const server = fakeApi({ '/getUserTokens': () => ok({ accessToken: 'a', refreshToken: '' }) });

    const [first, second] = await Promise.all([
      redeemMagicLink('new@example.org', 'tok'),
      redeemMagicLink('new@example.org', 'tok'),
    ]);

    expect(first).toEqual({ kind: 'signedIn' });
    expect(second).toEqual(first);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.url).toBe('/getUserTokens?email=new%40example.org&token=tok');
  });

  it('asks the server again once the first request settled (a later visit is a new attempt)', async () => {
    const server = fakeApi({ '/getUserTokens': () => refused(401, 'This sign-in link is used.') });
    await redeemMagicLink('a@example.org', 'tok');
    await redeemMagicLink('a@example.org', 'tok');
    expect(server.requests).toHaveLength(2);
  });

  it('fails without a call when the e-mail or the token is missing', async () => {
    const server = fakeApi({});
    for (const [email, token] of [
      [null, 'tok'],
      ['', 'tok'],
      ['a@example.org', null],
    ] as const) {
      expect(await redeemMagicLink(email, token)).toEqual({
        kind: 'failed',
        text: 'Authentication failed. Please try again.',
      });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('sends an e-mail without an account to sign-up with the link as proof', async () => {
    fakeApi({ '/getUserTokens': () => refused(404, 'sign up to continue', 'SIGNUP_REQUIRED') });
    expect(await redeemMagicLink('new@example.org', 'tok')).toEqual({
      kind: 'signupRequired',
      invite: { email: 'new@example.org', token: 'tok' },
    });
  });

  it("reports a refused link as an authentication failure with the server's reason", async () => {
    fakeApi({ '/getUserTokens': () => refused(401, 'This link expired.', 'UNAUTHENTICATED') });
    expect(await redeemMagicLink('a@example.org', 'old')).toEqual({
      kind: 'failed',
      text: 'Authentication failed. Please try again.',
      detail: 'This link expired.',
    });
  });

  it('reports a server fault or a lost connection as an unexpected error', async () => {
    fakeApi({ '/getUserTokens': () => refused(500, 'Internal error') });
    expect(await redeemMagicLink('a@example.org', 't1')).toEqual({
      kind: 'failed',
      text: 'An error occurred. Please try again.',
    });
    fakeApi({ '/getUserTokens': () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(await redeemMagicLink('a@example.org', 't2')).toEqual({
      kind: 'failed',
      text: 'An error occurred. Please try again.',
    });
  });
});
