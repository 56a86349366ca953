/// <reference types="node" />
import type { AnswerOf, RequestOf, RouteName } from '@uis/proto';
import { STATUS, TOKEN_COOKIES } from '@uis/proto/browser';
import type { BrowserContext } from '@playwright/test';
import { stack } from './stack-env';

/**
 * The few API calls the tests make themselves, to seed what the screens show (records come from
 * live sessions, which part 2 of the web app builds). Typed from proto like the app's own client.
 */
const ROUTES = {
  setNewUser: { method: 'POST', path: '/setNewUser' },
  addMessage: { method: 'POST', path: '/addMessage' },
  addPixel: { method: 'POST', path: '/addPixel' },
  addPrompt: { method: 'POST', path: '/addPrompt' },
  getMessages: { method: 'GET', path: '/getMessages' },
  getPixels: { method: 'GET', path: '/getPixels' },
  getPrompts: { method: 'GET', path: '/getPrompts' },
  getSessionInfo: { method: 'GET', path: '/getSessionInfo' },
  getVideoInfo: { method: 'GET', path: '/getVideoInfo' },
  getActions: { method: 'GET', path: '/getActions' },
  getGroups: { method: 'GET', path: '/getGroups' },
} as const satisfies Partial<Record<RouteName, { method: 'GET' | 'POST'; path: string }>>;
type SeedRoute = keyof typeof ROUTES;

export async function api<N extends SeedRoute>(
  name: N,
  input: RequestOf<N>,
  accessToken?: string,
): Promise<AnswerOf<N>> {
  const { method, path } = ROUTES[name];
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
