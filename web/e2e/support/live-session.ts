/// <reference types="node" />
import type { AnswerOf, RequestOf } from '@uis/proto';
import { NUDGE_RATE, STATUS } from '@uis/proto/browser';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { accessTokenOf, api, enterSession, signedInCookies, signUpThroughApi } from './api';
import { COMMON_TEXTS, LIVE_SESSION_TITLE } from '../../src/i18n/en/common';
import { SOUND_GATE_TEXTS } from '../../src/i18n/en/live-session';
import { CHROMIUM_MEDIA_ARGS, OUTPUT_DIR } from './paths';
import { DESKTOP } from './screenshots';
import { stack } from './stack-env';
import { test as base } from './test';

/**
 * What the live-session specs share: a browser launched for live media (fake camera and microphone,
 * loopback WebRTC, autoplay without a gesture), people signed in through the API in contexts of their
 * own, a session seeded with a real video, and measurements of the <video> on each page.
 */

/** Playwright's test for the live specs: the config's browser with the live media switches. */
export const test = base.extend({
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, args: [...(launchOptions.args ?? []), ...CHROMIUM_MEDIA_ARGS] });
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';

// ---- Seeding through the API --------------------------------------------------------------------

/**
 * Uploads a video as the editor does (multipart, sessionId first). Sent with node:http rather than
 * fetch: a server that refuses before reading the whole file closes the upload early, and fetch
 * then reports a broken pipe instead of the answer that says why.
 */
async function uploadVideo(sessionId: string, file: string, accessToken: string): Promise<string> {
  const form = new FormData();
  form.append('sessionId', sessionId);
  form.append('file', new Blob([fs.readFileSync(file)], { type: 'video/mp4' }), path.basename(file));
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL('/uploadVideo', stack().baseUrl);
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${accessToken}`,
        'Content-Type': encoded.headers.get('content-type') ?? '',
        'Content-Length': body.length,
      },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    // A refusal before the whole file was read: the answer still comes.
    request.on('error', (error) => setTimeout(() => reject(error), 1000));
    request.end(body);
  });
  const answer = JSON.parse(text) as { status: string; res: unknown };
  if (answer.status !== STATUS.SUCCESS) {
    throw new Error(`uploadVideo answered ${status}: ${JSON.stringify(answer.res)}`);
  }
  return (answer.res as AnswerOf<'uploadVideo'>).name;
}

/**
 * A real short video, made once per run with ffmpeg: a moving test pattern with a frame counter,
 * 640x360 at 30 fps, a key frame every second (seeks land quickly), the index first (faststart).
 */
export function testVideo(seconds = 40): string {
  const file = path.join(OUTPUT_DIR, `live-test-${seconds}s.mp4`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.mp4`;
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=30`, '-t', String(seconds)],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '30', '-movflags', '+faststart', partial],
    ],
    { stdio: 'inherit' },
  );
  fs.renameSync(partial, file);
  return file;
}

export interface Person {
  name: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export async function signUp(
  email: string,
  name: string,
  type: 'researcher' | 'participant' = 'participant',
): Promise<Person> {
  const pair = await signUpThroughApi(email, name, type);
  return { name, email, ...pair };
}

export interface SeededSession {
  sessionId: string;
  title: string;
}

/**
 * A video session of `researcher`'s, scoped to Everyone, with the test video (`videoSeconds` long)
 * uploaded and the given actions and prompts, as the editor would leave it. Opened (live) unless
 * `live` is false, so participants may come before the researcher's page; not started, they wait.
 */
export async function seedVideoSession(
  researcher: Person,
  {
    title,
    actions = [],
    prompts = [],
    videoSeconds,
    live = true,
  }: {
    title: string;
    live?: boolean;
    videoSeconds?: number;
    actions?: Array<Omit<RequestOf<'addAction'>, 'sessionId'>>;
    prompts?: Array<Omit<RequestOf<'addPrompt'>, 'sessionId'>>;
  },
): Promise<SeededSession> {
  const token = researcher.accessToken;
  const { group } = await api('createGroup', { title: `${title} group` }, token);
  const { session } = await api('createSession', { groupId: group.group_id }, token);
  const sessionId = session.session_id;
  await api('editSessionInfo', { sessionId, title, type: 'video' }, token);
  await uploadVideo(sessionId, testVideo(videoSeconds), token);
  for (const action of actions) await api('addAction', { sessionId, ...action }, token);
  for (const prompt of prompts) await api('addPrompt', { sessionId, ...prompt }, token);
  if (live) await api('editSessionInfo', { sessionId, state: 'live' }, token);
  return { sessionId, title };
}

// ---- Browsers ----------------------------------------------------------------------------------

/** A browser context of its own for `person`, signed in as auth's cookies keep it. */
export async function contextFor(browser: Browser, person: Person): Promise<BrowserContext> {
  const { baseUrl } = stack();
  const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
  await context.addCookies(signedInCookies(person, baseUrl));
  return context;
}

export const livePath = (sessionId: string) => `/liveSession/:${sessionId}`;

/** The session's chat list on a page. */
export const chatLog = (page: Page) => page.getByRole('log', { name: 'Chat messages' });

/** The texts of the chat list on a page, in order. */
export const chatTexts = (page: Page) => chatLog(page).locator('.live-chat-text').allTextContents();

/** Opens the live session (having entered it) and waits until the connection is up and the video can play. */
export async function openLive(page: Page, sessionId: string): Promise<void> {
  await enterSession(sessionId, await accessTokenOf(page.context()));
  await page.goto(livePath(sessionId));
  await waitUntilLive(page);
}

/**
 * A participant's page shows the sound gate before the video plays (the researcher's does not):
 * this passes it as a person does, and answers whether there was one. The tone needs an audio
 * output; a browser without one goes on without sound, which the live specs do not listen to.
 */
export async function passSoundGate(page: Page): Promise<boolean> {
  const gate = page.getByTestId('sound-gate');
  // The player's area (the researcher's, or after the gate) or the gate, whichever the page has.
  await expect(page.locator('.live-player-host').or(gate).first()).toBeAttached({ timeout: 20_000 });
  if (!(await gate.isVisible())) return false;
  await gate.getByRole('button', { name: SOUND_GATE_TEXTS.playTone }).click();
  const heard = gate.getByRole('button', { name: SOUND_GATE_TEXTS.heard });
  const withoutSound = gate.getByRole('button', { name: SOUND_GATE_TEXTS.continueMuted });
  await expect(heard.or(withoutSound).first()).toBeVisible({ timeout: 10_000 });
  await ((await heard.isVisible()) ? heard : withoutSound).click();
  await expect(gate).toHaveCount(0);
  return true;
}

export async function waitUntilLive(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(LIVE_SESSION_TITLE);
  await expect(page.getByText(COMMON_TEXTS.connecting)).toHaveCount(0, { timeout: 20_000 });
  await passSoundGate(page);
  await expect
    .poll(() => page.locator('video').evaluate((video: HTMLVideoElement) => video.readyState), {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(2);
}

// ---- Measuring playback -----------------------------------------------------------------------

export interface VideoSample {
  time: number;
  paused: boolean;
  rate: number;
  /** When the sample was taken: epoch ms, the machine's clock (the same for every page). */
  at: number;
}

export const sampleVideo = (page: Page): Promise<VideoSample> =>
  page.locator('video').evaluate((video: HTMLVideoElement) => ({
    time: video.currentTime,
    paused: video.paused,
    rate: video.playbackRate,
    at: performance.timeOrigin + performance.now(),
  }));

/** A sample moved to epoch ms `at` at its own rate (the samples of several pages are a few ms apart). */
const positionAt = (sample: VideoSample, at: number) =>
  sample.paused ? sample.time : sample.time + ((at - sample.at) / 1000) * sample.rate;

/**
 * A <video> to measure: a Playwright page's, or one in a browser Playwright does not drive, sampled
 * as sampleVideo samples (firefox/firefox-live-page.ts).
 */
export type MeasuredVideo = Page | { sampleVideo(): Promise<VideoSample> };

const sampleOf = (measured: MeasuredVideo): Promise<VideoSample> =>
  'sampleVideo' in measured ? measured.sampleVideo() : sampleVideo(measured);

/** Each follower's position minus the lead's at one instant, in seconds. */
export async function driftsOf(lead: MeasuredVideo, followers: MeasuredVideo[]): Promise<number[]> {
  const samples = await Promise.all([lead, ...followers].map(sampleOf));
  const at = Math.max(...samples.map((sample) => sample.at));
  const [leader, ...rest] = samples.map((sample) => positionAt(sample, at));
  return rest.map((position) => position - (leader ?? 0));
}

/**
 * The live specs' bounds: behaviour (participants follow play, pause, seeks and reloads), set to hold
 * on a loaded two-core machine (the suite's own browsers, decoders and app on it). How well they
 * follow is measured on a quiet machine by `npm run bench` (P11 steady drift, P13 seeks, P14 calls).
 */
export const FOLLOW = {
  /** After a start, a seek or a reload, a participant is this close to the researcher... */
  nearS: 0.25,
  /** ...within this long. */
  withinMs: 10_000,
  /** In steady playback, the median |drift| stays under this... */
  steadyMedianS: 0.1,
  /** ...and no counted sample goes past this (a stall being made up, not a participant astray). */
  steadyMaxS: 0.5,
} as const;

/** Max and median of the steady samples in ms, how many, and how many a stall left out: for the log. */
export function steadySummary({ steady, excluded }: SteadyDrifts) {
  const sorted = [...steady].sort((a, b) => a - b);
  const ms = (seconds: number | undefined) => Math.round((seconds ?? 0) * 1000);
  return {
    maxMs: ms(sorted.at(-1)),
    medianMs: ms(sorted[Math.floor(sorted.length / 2)]),
    samples: steady.length,
    leftOutAfterStalls: excluded.length,
  };
}

/** At least `want` steady samples, within FOLLOW's steady bounds; the trace is told when not. */
export function expectFollowedSteadily(result: SteadyDrifts, want: number): void {
  const trace = `\n${result.trace.join('\n')}`;
  const sorted = [...result.steady].sort((a, b) => a - b);
  expect(result.steady.length, `steady samples${trace}`).toBeGreaterThanOrEqual(want);
  expect(sorted[Math.floor(sorted.length / 2)], `median steady drift${trace}`).toBeLessThan(
    FOLLOW.steadyMedianS,
  );
  expect(sorted.at(-1), `largest steady drift${trace}`).toBeLessThan(FOLLOW.steadyMaxS);
}

/** A player whose position moved this much more or less than its rate says in one sample interval stalled. */
const STALL_S = 0.025;
/** How fast participants make up drift under a second: the nudge's largest (proto's NUDGE_RATE). */
const CATCH_UP_PER_S = NUDGE_RATE;

/** One look at every page during steadyDrifts. */
export interface DriftSample {
  /** When: epoch ms, the machine's clock. */
  at: number;
  /** The lead's position then, in seconds. */
  lead: number;
  /** Each follower's position minus the lead's then, in seconds (positive: ahead). */
  drifts: number[];
  /** The largest stall of any player since the previous look, in seconds (0: none). */
  stall: number;
  /** Counted in `steady` (the first look, a baseline, never is). */
  steady: boolean;
}

export interface SteadyDrifts {
  /** |drift| of each follower, in seconds, in samples taken in steady playback. */
  steady: number[];
  /** |drift| of the samples left out: some player had stalled (a starved CPU) too recently. */
  excluded: number[];
  /** Every sample, for the log: ms since the start, the researcher's position, each follower's drift in ms. */
  trace: string[];
  /** Every look, the first included, with the signed drift of each follower. */
  samples: DriftSample[];
}

/**
 * The followers' |drift| in steady playback. Every `everyMs`, each page's position at one instant.
 * A player that moved more or less than its rate in an interval stalled (its CPU was starved: on a
 * busy two-core machine several browsers decode video at once); a sample counts only when no player
 * stalled within `quietMs` before it, or within the time the nudge needs to make up that stall,
 * whichever is longer. Samples until `want` steady ones, or `maxMs`.
 */
export async function steadyDrifts(
  lead: MeasuredVideo,
  followers: MeasuredVideo[],
  { want = 16, everyMs = 250, quietMs = 2000, maxMs = 40_000 } = {},
): Promise<SteadyDrifts> {
  const pages = [lead, ...followers];
  const result: SteadyDrifts = { steady: [], excluded: [], trace: [], samples: [] };
  const started = Date.now();
  let previous: { at: number; positions: number[]; rates: number[] } | null = null;
  /** Samples count again from this time (epoch ms). */
  let steadyFrom = -Infinity;
  while (result.steady.length < want && Date.now() - started < maxMs) {
    const samples = await Promise.all(pages.map(sampleOf));
    const at = Math.max(...samples.map((sample) => sample.at));
    const current = {
      at,
      positions: samples.map((sample) => positionAt(sample, at)),
      rates: samples.map((sample) => (sample.paused ? 0 : sample.rate)),
    };
    const [leader = 0, ...rest] = current.positions;
    const drifts = rest.map((position) => position - leader);
    if (!previous) {
      result.samples.push({ at, lead: leader, drifts, stall: 0, steady: false });
    } else {
      const seconds = (current.at - previous.at) / 1000;
      let stall = 0;
      for (const [i, position] of current.positions.entries()) {
        const expected = (seconds * ((previous.rates[i] ?? 1) + (current.rates[i] ?? 1))) / 2;
        const off = Math.abs(position - (previous.positions[i] ?? 0) - expected);
        if (off > STALL_S) stall = Math.max(stall, off);
      }
      if (stall > 0) {
        steadyFrom = Math.max(steadyFrom, current.at + Math.max(quietMs, (stall / CATCH_UP_PER_S) * 1000));
      }
      const counted = current.at >= steadyFrom;
      (counted ? result.steady : result.excluded).push(...drifts.map(Math.abs));
      result.samples.push({ at: current.at, lead: leader, drifts, stall, steady: counted });
      result.trace.push(
        `${Math.round(current.at - started)} R=${leader.toFixed(3)} ${drifts
          .map((drift, i) => `${Math.round(drift * 1000)}ms@${(current.rates[i + 1] ?? 0).toFixed(3)}`)
          .join(
            ' ',
          )}${stall > 0 ? ` stall ${Math.round(stall * 1000)}ms` : ''}${counted ? '' : ' (left out)'}`,
      );
    }
    previous = current;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return result;
}

/** The researcher's player, driven as its native controls would (the same element events). */
export const researcherVideo = {
  play: (page: Page) => page.locator('video').evaluate((video: HTMLVideoElement) => video.play()),
  pause: (page: Page) => page.locator('video').evaluate((video: HTMLVideoElement) => video.pause()),
  /** Seeks and resolves once the element says the seek is done. */
  seek: (page: Page, seconds: number) =>
    page.locator('video').evaluate(
      (video: HTMLVideoElement, to: number) =>
        new Promise<void>((resolve) => {
          video.addEventListener('seeked', () => resolve(), { once: true });
          video.currentTime = to;
        }),
      seconds,
    ),
};
