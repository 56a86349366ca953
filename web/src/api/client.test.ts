import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused } from '../testing/fake-api';
import { tokens } from '../signed-in/tokens';
import { call, renewAccessToken, upload } from './client';

/** What auth's answers do in a browser: the readable marker beside the HttpOnly token cookies. */
const signedIn = (expiresInSeconds = 900) => {
  document.cookie = `signedIn=${Math.floor(Date.now() / 1000) + expiresInSeconds}; path=/`;
};
const user = { id: '00000000-0000-4000-8000-000000000001', email: 'a@b.org', name: 'A', type: 'participant' };

describe('the API client signs in by the HttpOnly cookies', () => {
  let init: RequestInit[];
  beforeEach(() => {
    init = [];
  });
  afterEach(() => tokens.clear());

  /** The fake API, keeping each request's init (headers, credentials) as fetch got it. */
  const serve = (handlers: Parameters<typeof fakeApi>[0]) => {
    const api = fakeApi(handlers);
    const fetchStub = vi.mocked(fetch);
    const answer = fetchStub.getMockImplementation()!;
    fetchStub.mockImplementation((url, options = {}) => {
      init.push(options);
      return answer(url, options);
    });
    return api;
  };

  it("sends every call with the cookies and the app's header, never a token of its own", async () => {
    signedIn();
    serve({ '/getUserFromToken': () => ok({ user }), '/logout': () => ok({ message: 'Signed out.' }) });
    await call('getUserFromToken', {});
    await call('logout', {});
    expect(init).toHaveLength(2);
    for (const sent of init) {
      expect(sent.credentials).toBe('include');
      expect(sent.headers).toMatchObject({ 'X-Requested-With': 'uis' });
      expect(sent.headers).not.toHaveProperty('Authorization');
    }
  });

  it('renews an expired access token by the refresh cookie, once for concurrent calls, then retries', async () => {
    signedIn(-10);
    let renewed = false;
    const api = serve({
      '/getAccessTokenFromRefreshToken': () => {
        renewed = true;
        return ok({ accessToken: 'fresh', refreshToken: '' });
      },
      '/getUserFromToken': () => (renewed ? ok({ user }) : refused(401, 'expired')),
    });
    await Promise.all([call('getUserFromToken', {}), call('getUserFromToken', {})]);
    // No refresh token in the body: the server takes its cookie.
    expect(api.to('/getAccessTokenFromRefreshToken').map((sent) => [sent.method, sent.body])).toEqual([
      ['POST', {}],
    ]);
    expect(api.to('/getUserFromToken')).toHaveLength(4);
  });

  it("answers the renewed access token (the live connection's renewToken), and nothing when signed out", async () => {
    serve({ '/getAccessTokenFromRefreshToken': () => ok({ accessToken: 'fresh', refreshToken: '' }) });
    expect(await renewAccessToken()).toBeUndefined();
    signedIn();
    expect(await renewAccessToken()).toBe('fresh');
  });

  it('forgets the sign-in when the server refuses the refresh cookie; a 401 without a sign-in stands', async () => {
    signedIn();
    const api = serve({
      '/getAccessTokenFromRefreshToken': () => refused(401, 'Your session has ended.'),
      '/getUserFromToken': () => refused(401, 'expired'),
    });
    await expect(call('getUserFromToken', {})).rejects.toMatchObject({ httpStatus: 401 });
    expect(tokens.present()).toBe(false);
    await expect(call('getUserFromToken', {})).rejects.toMatchObject({ httpStatus: 401 });
    expect(api.to('/getAccessTokenFromRefreshToken')).toHaveLength(1);
  });

  it("keeps the sign-in when the refresh could not be answered (the server's fault, not the login's)", async () => {
    signedIn();
    serve({ '/getAccessTokenFromRefreshToken': () => refused(503, 'down') });
    expect(await renewAccessToken()).toBeUndefined();
    expect(tokens.present()).toBe(true);
  });

  it("sends an upload (multipart) with the app's header too, which a cookie needs for a change", async () => {
    const sent: { headers: Record<string, string>; withCredentials: boolean }[] = [];
    class FakeUpload {
      headers: Record<string, string> = {};
      withCredentials = false;
      upload = {};
      status = 200;
      response = { status: 'SUCCESS', res: { name: 'clip.mp4' } };
      onload: (() => void) | null = null;
      open() {}
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value;
      }
      send() {
        sent.push(this);
        this.onload?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    await upload('uploadVideo', { sessionId: user.id }, new File(['x'], 'clip.mp4'));
    expect(sent).toEqual([
      expect.objectContaining({ headers: { 'X-Requested-With': 'uis' }, withCredentials: true }),
    ]);
  });
});
