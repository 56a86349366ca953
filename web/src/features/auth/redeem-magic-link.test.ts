import { afterEach, describe, expect, it, vi } from 'vitest';
import { redeemMagicLink } from './redeem-magic-link';

/** The server's {status, res} envelope, as the API answers it. */
const answer = (httpStatus: number, body: unknown) =>
  new Response(JSON.stringify(body), { status: httpStatus, headers: { 'Content-Type': 'application/json' } });

function stubServer(respond: () => Response | Promise<Response>) {
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(respond()));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('redeemMagicLink', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('trades the link for tokens once, even when asked twice at the same time', async () => {
    const pair = { accessToken: 'a', refreshToken: 'r' };
    const fetchMock = stubServer(() => answer(200, { status: 'SUCCESS', res: pair }));

    const [first, second] = await Promise.all([
      redeemMagicLink('new@example.org', 'tok'),
      redeemMagicLink('new@example.org', 'tok'),
    ]);

    expect(first).toEqual({ kind: 'signedIn', pair });
    expect(second).toEqual(first);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/getUserTokens?email=new%40example.org&token=tok');
  });

  it('asks the server again once the first request settled (a later visit is a new attempt)', async () => {
    const fetchMock = stubServer(() =>
      answer(401, {
        status: 'ERROR',
        res: { message: 'This sign-in link is used.', code: 'UNAUTHENTICATED' },
      }),
    );
    await redeemMagicLink('a@example.org', 'tok');
    await redeemMagicLink('a@example.org', 'tok');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('fails without a call when the e-mail or the token is missing', async () => {
    const fetchMock = stubServer(() => answer(200, {}));
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
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends an e-mail without an account to sign-up with the link as proof', async () => {
    stubServer(() =>
      answer(404, { status: 'ERROR', res: { message: 'sign up to continue', code: 'SIGNUP_REQUIRED' } }),
    );
    expect(await redeemMagicLink('new@example.org', 'tok')).toEqual({
      kind: 'signupRequired',
      invite: { email: 'new@example.org', token: 'tok' },
    });
  });

  it("reports a refused link as an authentication failure with the server's reason", async () => {
    stubServer(() =>
      answer(401, { status: 'ERROR', res: { message: 'This link expired.', code: 'UNAUTHENTICATED' } }),
    );
    expect(await redeemMagicLink('a@example.org', 'old')).toEqual({
      kind: 'failed',
      text: 'Authentication failed. Please try again.',
      detail: 'This link expired.',
    });
  });

  it('reports a server fault or a lost connection as an unexpected error', async () => {
    stubServer(() => answer(500, { status: 'ERROR', res: { message: 'Internal error', errorId: 'x' } }));
    expect(await redeemMagicLink('a@example.org', 't1')).toEqual({
      kind: 'failed',
      text: 'An error occurred. Please try again.',
    });
    stubServer(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await redeemMagicLink('a@example.org', 't2')).toEqual({
      kind: 'failed',
      text: 'An error occurred. Please try again.',
    });
  });
});
