/// <reference types="node" />
import { routes, type AnswerOf, type RequestOf, type RouteName } from '@uis/proto';
import { STATUS, TOKEN_COOKIES } from '@uis/proto/browser';
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

/** The access token the app stored in its cookie after signing in. */
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
