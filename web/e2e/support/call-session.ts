/// <reference types="node" />
import type { AnswerOf, RequestOf, RouteName } from '@uis/proto';
import { STATUS } from '@uis/proto/browser';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { enterSession, signedInCookies, signUpThroughApi } from './api';
import { CHROMIUM_MEDIA_ARGS } from './paths';
import { DESKTOP } from './screenshots';
import { stack } from './stack-env';
import { test } from './test';

/**
 * The chat call's e2e set-up: Chromium with a fake camera and microphone, accounts and a chat
 * session made through the API (the editor has its own tests), and pages signed in by their
 * cookies, as the app keeps them.
 */

/** What the call specs add to Chromium's arguments: the live media switches. */
export const CALL_ARGS = CHROMIUM_MEDIA_ARGS;

/** The project's test with CALL_ARGS added to its Chromium's (a worker of its own). */
export const callTest = test.extend({
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, args: [...(launchOptions.args ?? []), ...CALL_ARGS] });
    },
    { scope: 'worker' },
  ],
});

export type Tokens = AnswerOf<'setNewUser'>;

/** The routes the set-up calls, beyond support/api.ts's. */
const ROUTES = {
  createGroup: { method: 'POST', path: '/createGroup' },
  createSession: { method: 'POST', path: '/createSession' },
  editSessionInfo: { method: 'POST', path: '/editSessionInfo' },
} as const satisfies Partial<Record<RouteName, { method: 'POST'; path: string }>>;

async function post<N extends keyof typeof ROUTES>(
  name: N,
  input: RequestOf<N>,
  accessToken: string,
): Promise<AnswerOf<N>> {
  const answer = await fetch(`${stack().baseUrl}${ROUTES[name].path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(input),
  });
  const body = (await answer.json()) as { status: string; res: unknown };
  if (body.status !== STATUS.SUCCESS)
    throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(body.res)}`);
  return body.res as AnswerOf<N>;
}

export interface ChatSession {
  sessionId: string;
  researcher: Tokens;
}

/** A researcher and one chat session of theirs, scoped to Everyone (the default), opened (live). */
export async function chatSession(email: string, name: string, title: string): Promise<ChatSession> {
  const researcher = await signUpThroughApi(email, name, 'researcher');
  const { group } = await post('createGroup', { email }, researcher.accessToken);
  const { session } = await post('createSession', { groupId: group.group_id, email }, researcher.accessToken);
  await post(
    'editSessionInfo',
    { sessionId: session.session_id, type: 'chat', title, state: 'live' },
    researcher.accessToken,
  );
  return { sessionId: session.session_id, researcher };
}

/** Sets the session's scope (a list of participants' e-mails, or Everyone). */
export async function scopeSession(
  sessionId: string,
  scope: RequestOf<'editSessionInfo'>['scope'],
  researcher: Tokens,
): Promise<void> {
  await post('editSessionInfo', { sessionId, scope }, researcher.accessToken);
}

/** The live session's path, with the spec's leading colon. */
export const livePath = (sessionId: string): string => `/liveSession/:${sessionId}`;

/** A browser context signed in as `tokens`' user: the cookies auth sets at a sign-in. */
export async function signedInContext(browser: Browser, tokens: Tokens): Promise<BrowserContext> {
  const { baseUrl } = stack();
  const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
  await context.addCookies(signedInCookies(tokens, baseUrl));
  return context;
}

/** Opens the session's live page for `tokens`' user, its peer connections recorded (call-media.ts). */
export async function openLiveSession(
  browser: Browser,
  tokens: Tokens,
  sessionId: string,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<Page> {
  const context = await signedInContext(browser, tokens);
  await prepare?.(context);
  await enterSession(sessionId, tokens.accessToken);
  const page = await context.newPage();
  await page.goto(livePath(sessionId));
  return page;
}
