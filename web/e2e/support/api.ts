/// <reference types="node" />
import { routes, type AnswerOf, type RequestOf, type RouteName, type TokenPair } from '@uis/proto';
import { SIGNED_IN_COOKIE, STATUS, TOKEN_COOKIES } from '@uis/proto/browser';
import type { BrowserContext } from '@playwright/test';
import { nextMagicLink } from './magic-link';
import { stack } from './stack-env';

/**
 * A call the tests make themselves, to seed what the screens show or read what was stored: any
 * route of proto's table (its method and path), typed from it like the app's own client.
 */
export async function api<N extends RouteName>(
  name: N,
  input: RequestOf<N>,
  accessToken?: string,
): Promise<AnswerOf<N>> {
  const { method, path } = routes[name];
  const query = method === 'GET' ? `?${new URLSearchParams(input as Record<string, string>)}` : '';
  const answer = await fetch(`${stack().baseUrl}${path}${query}`, {
    method,
    headers: {
      ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
      ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
    },
    body: method === 'POST' ? JSON.stringify(input) : undefined,
  });
  const body = (await answer.json()) as { status: string; res: unknown };
  if (body.status !== STATUS.SUCCESS) {
    throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(body.res)}`);
  }
  return body.res as AnswerOf<N>;
}

/**
 * The person takes part in the session (what the live page's "Join the session" does for a session
 * scoped to Everyone): the helpers that open a live page call it first, so specs about something
 * else need not click through. For the owner, a no-op.
 */
export async function enterSession(sessionId: string, accessToken: string): Promise<void> {
  await api('enterSession', { sessionId }, accessToken);
}

/**
 * The cookies auth sets when `tokens` sign in, for a browser context signed in without the screens:
 * the tokens HttpOnly, as the app never reads them, and the readable marker with the access token's
 * expiry, by which the app knows it is signed in and when to renew.
 */
export function signedInCookies(tokens: TokenPair, url: string): Parameters<BrowserContext['addCookies']>[0] {
  const payload = tokens.accessToken.split('.')[1] ?? '';
  const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number };
  return [
    { name: TOKEN_COOKIES.accessToken, value: tokens.accessToken, url, sameSite: 'Lax', httpOnly: true },
    { name: TOKEN_COOKIES.refreshToken, value: tokens.refreshToken, url, sameSite: 'Lax', httpOnly: true },
    { name: SIGNED_IN_COOKIE, value: String(exp), url, sameSite: 'Lax' },
  ];
}

/** The access token auth set in its cookie when the app signed in. */
export async function accessTokenOf(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find(({ name }) => name === TOKEN_COOKIES.accessToken);
  if (!cookie) throw new Error('no access-token cookie: is the user signed in?');
  return cookie.value;
}

/**
 * Seeds an account as the server now requires of every sign-up: asks for a magic link of the
 * e-mail, reads it from the dev outbox, and presents its token to /setNewUser. Answers the pair.
 */
export async function signUpThroughApi(
  email: string,
  name: string,
  type: RequestOf<'setNewUser'>['type'] = 'participant',
): Promise<AnswerOf<'setNewUser'>> {
  const link = await nextMagicLink(email, async () => {
    await api('magicLogin', { destination: email });
  });
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`the magic link for ${email} has no token: ${link}`);
  return api('setNewUser', { email, name, type, token });
}
