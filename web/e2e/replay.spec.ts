import type { Locator, Page } from '@playwright/test';
import { api } from './support/api';
import { expectAccessible } from './support/axe';
import {
  contextFor,
  expect,
  openLive,
  researcherVideo,
  sampleVideo,
  seedVideoSession,
  signUp,
  test,
} from './support/live-session';
import { capture } from './support/screenshots';
import { emailOf } from './support/users';
import { heatmapText, REPLAY_TEXTS } from '../src/i18n/en/replay';

const PROMPT = 'What do you notice?';
/** The test video's length (seedVideoSession's default): the timeline's length. */
const VIDEO_S = 40;

/** Two crowds of clicks: around A early in the video, around B late. Fractions of the video area. */
const A = { x: 0.22, y: 0.3 };
const B = { x: 0.68, y: 0.62 };
/** Where nobody clicked. */
const EMPTY = [
  { x: 0.5, y: 0.92 },
  { x: 0.92, y: 0.12 },
];
/** Small, fixed offsets around a crowd's centre (a repeatable scatter). */
const JITTER = [
  [0, 0],
  [0.02, -0.015],
  [-0.025, 0.01],
  [0.01, 0.03],
  [-0.015, -0.025],
  [0.035, 0.02],
  [-0.04, 0.035],
  [0.045, -0.03],
] as const;

/** The replay section of the editor. */
const replayOf = (page: Page) => page.getByRole('region', { name: 'Replay' });
const videoOf = (replay: Locator) => replay.getByLabel('Replay video', { exact: true });
const caption = (replay: Locator) => replay.getByTestId('heat-caption');

const eventList = (replay: Locator) => replay.getByRole('region', { name: /^Events/ });

/**
 * The names of the event list's entries, in order: each is named by what it shows (video time, kind,
 * who, text: '0:03 Message · Pat: Hello'), its icon hidden.
 */
const listed = (replay: Locator) =>
  eventList(replay)
    .getByRole('listitem')
    .getByRole('button')
    .evaluateAll((buttons) =>
      buttons.map((button) => {
        const read = button.cloneNode(true) as HTMLElement;
        for (const hidden of read.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
        return (read.textContent ?? '').replace(/\s+/g, ' ').trim();
      }),
    );

/** The highest alpha of the heatmap canvas in a 7x7 pixel square around fractions x, y of the picture. */
const heatAt = (replay: Locator, point: { x: number; y: number }) =>
  replay.locator('canvas.replay-heat').evaluate((canvas: HTMLCanvasElement, { x, y }) => {
    const context = canvas.getContext('2d');
    if (!context || canvas.width === 0) return -1;
    const left = Math.max(0, Math.round(x * canvas.width) - 3);
    const top = Math.max(0, Math.round(y * canvas.height) - 3);
    const { data } = context.getImageData(left, top, 7, 7);
    let alpha = 0;
    for (let i = 3; i < data.length; i += 4) alpha = Math.max(alpha, data[i] ?? 0);
    return alpha;
  }, point);

/**
 * A quarter second past `seconds`: a press lands within a pixel's time of where it aims, and the
 * window's edges (whole seconds written) then read the same whichever side of it it lands.
 */
const aim = (seconds: number) => (seconds + 0.25) / VIDEO_S;

/** Presses the scrubber at `seconds` (a quarter past), and waits until the video is there. */
async function scrubTo(replay: Locator, seconds: number): Promise<void> {
  const scrubber = replay.getByRole('slider', { name: REPLAY_TEXTS.videoPosition });
  const box = await scrubber.boundingBox();
  if (!box) throw new Error('no scrubber');
  await scrubber.click({ position: { x: box.width * aim(seconds), y: box.height / 2 } });
  await expect.poll(() => videoTime(replay)).toBeCloseTo(seconds + 0.25, 0);
}

const videoTime = (replay: Locator) =>
  videoOf(replay).evaluate((video: HTMLVideoElement) => video.currentTime);

test('the replay puts a played session on the video clock: events in order, a heatmap of the window, scrubbing, filters', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [rhea, pat, quinn] = await Promise.all([
    signUp(emailOf('replay-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('replay-pat'), 'Pat Participant'),
    signUp(emailOf('replay-quinn'), 'Quinn Participant'),
  ]);
  const { sessionId } = await seedVideoSession(rhea, {
    title: 'Replay study',
    actions: [{ name: 'Applause', icon: 'celebration', type: 'outlined', color: '#e91e63' }],
    prompts: [{ time: '00:00:02', duration: 1, prompt: PROMPT }],
  });
  const context = await contextFor(browser, rhea);

  await test.step('the researcher plays the session live: play, the prompt, pause, a seek and a speed change are logged', async () => {
    const desk = await context.newPage();
    await openLive(desk, sessionId);
    await researcherVideo.play(desk);
    // The prompt at 2 s pauses the video for its second, then it plays on.
    await expect.poll(async () => (await sampleVideo(desk)).time, { timeout: 15_000 }).toBeGreaterThan(3.2);
    await researcherVideo.pause(desk);
    await researcherVideo.seek(desk, 24);
    await desk.locator('video').evaluate((video: HTMLVideoElement) => {
      video.playbackRate = 1.5;
    });
    await expect
      .poll(
        async () => (await api('getPlayback', { sessionId }, rhea.accessToken)).playback.map((e) => e.event),
        {
          timeout: 15_000,
        },
      )
      .toEqual(expect.arrayContaining(['play', 'prompt', 'pause', 'seek', 'rate']));
    await desk.close();
  });

  await test.step('participants wrote and reacted, and clicks were recorded, at known video times', async () => {
    const { actions } = await api('getActions', { sessionId }, rhea.accessToken);
    const applause = actions[0];
    if (!applause) throw new Error('no action');
    await api('addMessage', { sessionId, message: 'Welcome, everyone', videoTime: null }, rhea.accessToken);
    await api('addMessage', { sessionId, message: 'I see circles', videoTime: 3.5 }, pat.accessToken);
    await api(
      'addMessage',
      {
        sessionId,
        message: 'Quinn Participant reacted with Applause',
        videoTime: 4.2,
        actionId: applause.action_id,
      },
      quinn.accessToken,
    );
    await api('addMessage', { sessionId, message: 'The colours changed', videoTime: 26.5 }, pat.accessToken);
    const clicks = [
      ...JITTER.slice(0, 6).map(([dx, dy], i) => ({ x: A.x + dx, y: A.y + dy, videoTime: 3 + i * 0.8 })),
      ...JITTER.map(([dx, dy], i) => ({ x: B.x + dx, y: B.y + dy, videoTime: 27 + i })),
      ...JITTER.slice(0, 4).map(([dx, dy], i) => ({ x: B.x + dy, y: B.y + dx, videoTime: 29.5 + i })),
    ];
    for (const click of clicks) {
      await api('addPixel', { sessionId, color: 'rgb(233, 30, 99)', ...click }, rhea.accessToken);
    }
    await api('addPixel', { sessionId, color: 'n/a', x: 0.5, y: 0.5, videoTime: null }, rhea.accessToken);
  });

  const page = await context.newPage();
  const replay = replayOf(page);

  await test.step('the editor shows the Replay below its panels, loaded when scrolled to', async () => {
    await page.goto(`/editSession/:${sessionId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Replay study');
    await replay.scrollIntoViewIfNeeded();
    await expect(videoOf(replay)).toBeVisible();
    await expect
      .poll(() => videoOf(replay).evaluate((video: HTMLVideoElement) => video.readyState))
      .toBeGreaterThan(0);
    // Every list is in (they come one by one).
    await expect(eventList(replay)).toHaveAttribute('aria-busy', 'false');
    await expect(eventList(replay).getByRole('listitem')).not.toHaveCount(0);
  });

  await test.step('the events are listed and marked in video order; what has no video time is apart', async () => {
    const all = await listed(replay);
    const times = await replay
      .getByRole('toolbar')
      .getByRole('button')
      .evaluateAll((markers) => markers.map((marker) => Number(marker.getAttribute('data-at'))));
    expect(times.length).toBe(all.length);
    // Each lane is in video order.
    for (const lane of await replay.getByRole('toolbar').all()) {
      const at = await lane
        .getByRole('button')
        .evaluateAll((markers) => markers.map((marker) => Number(marker.getAttribute('data-at'))));
      expect(at).toEqual([...at].sort((a, b) => a - b));
    }
    expect(all[0]).toBe('0:00 Play · Rhea Researcher');
    expect(all).toContain('0:24 Seek · Rhea Researcher');
    expect(all).toContain('0:24 Speed 1.5× · Rhea Researcher');
    expect(all.indexOf('0:24 Seek · Rhea Researcher')).toBeLessThan(
      all.indexOf('0:24 Speed 1.5× · Rhea Researcher'),
    );

    // Without the playback log, the scripted events in order. The prompt's firing and the chat
    // message it sends are placed where the server reckons the researcher's player was then: at
    // 2 s give or take some milliseconds, so either side of the set prompt's second.
    await replay.getByRole('checkbox', { name: /^Playback/ }).uncheck();
    const scripted = await listed(replay);
    const aroundTwo = (label: string) => label.replace(/^0:0[12] /, '0:02 ');
    expect(scripted.slice(0, 3).map(aroundTwo).sort()).toEqual(
      [
        `0:02 Prompt for 1 s: ${PROMPT}`,
        `0:02 Prompt fired · Rhea Researcher: ${PROMPT}`,
        // A fired prompt is said in the chat too, by the researcher.
        `0:02 Message · Rhea Researcher: ${PROMPT}`,
      ].sort(),
    );
    expect(scripted.slice(3)).toEqual([
      '0:03 Message · Pat Participant: I see circles',
      '0:04 Reaction · Quinn Participant: Applause',
      '0:26 Message · Pat Participant: The colours changed',
    ]);
    await expect(
      replay.getByRole('toolbar', { name: 'Messages: 3 on the video' }).getByRole('button'),
    ).toHaveCount(3);
    await expect(replay.getByRole('toolbar', { name: 'Playback: 0 on the video' })).toHaveCount(0);
    await replay.getByRole('checkbox', { name: /^Playback/ }).check();

    const apart = replay.getByText('Not on the video: 2 records');
    await apart.click();
    await expect(replay.getByText('Welcome, everyone')).toBeVisible();
    await expect(replay.getByText('1 click, left out of the heatmap.')).toBeVisible();
    await apart.click();
  });

  await test.step('the heatmap shows the clicks of the window around the position, and nothing where nobody clicked', async () => {
    await scrubTo(replay, 5);
    await expect(caption(replay)).toHaveText(heatmapText(6, { from: '0:00', to: '0:10' }));
    await expect.poll(() => heatAt(replay, A)).toBeGreaterThan(0);
    expect(await heatAt(replay, B)).toBe(0);
    for (const point of EMPTY) expect(await heatAt(replay, point)).toBe(0);
  });

  await test.step('scrubbing moves the video and the window: the crowd at B shows, A is gone', async () => {
    await scrubTo(replay, 30);
    await expect(caption(replay)).toHaveText(heatmapText(12, { from: '0:25', to: '0:35' }));
    await expect.poll(() => heatAt(replay, B)).toBeGreaterThan(0);
    expect(await heatAt(replay, A)).toBe(0);
    for (const point of EMPTY) expect(await heatAt(replay, point)).toBe(0);
    // The list marks what is in the window.
    await expect(
      eventList(replay).getByRole('button', {
        name: '0:26 Message · Pat Participant: The colours changed',
      }),
    ).toHaveAttribute('aria-current', 'time');
    await expect(
      eventList(replay).getByRole('button', { name: '0:03 Message · Pat Participant: I see circles' }),
    ).not.toHaveAttribute('aria-current');

    // Dragging along a lane seeks as it goes.
    const lane = replay.getByRole('toolbar', { name: /^Reactions/ });
    await lane.scrollIntoViewIfNeeded();
    const box = await lane.boundingBox();
    if (!box) throw new Error('no lane');
    await page.mouse.move(box.x + box.width * aim(12), box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * aim(16), box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width * aim(20), box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => videoTime(replay)).toBeCloseTo(20.25, 0);
    await expect(caption(replay)).toHaveText(heatmapText(0, { from: '0:15', to: '0:25' }));

    // The keyboard: the slider steps a second; a marker seeks to its event.
    await replay.getByRole('slider', { name: REPLAY_TEXTS.videoPosition }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => videoTime(replay)).toBeCloseTo(21.25, 0);
    const marker = replay
      .getByRole('toolbar', { name: /^Messages/ })
      .getByRole('button', { name: 'Message from Pat Participant at 0:03: I see circles' });
    await marker.focus();
    await page.keyboard.press('ArrowRight');
    await expect(
      replay
        .getByRole('toolbar', { name: /^Messages/ })
        .getByRole('button', { name: /The colours changed$/ }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => videoTime(replay)).toBeCloseTo(26.5, 1);
  });

  await test.step('the heatmap window follows the playing video', async () => {
    await scrubTo(replay, 20);
    await expect(caption(replay)).toHaveText(heatmapText(0, { from: '0:15', to: '0:25' }));
    await videoOf(replay).evaluate(async (video: HTMLVideoElement) => {
      video.muted = true;
      await video.play();
    });
    await expect(caption(replay)).not.toHaveText(/ 0 clicks /, { timeout: 15_000 });
    await expect.poll(() => heatAt(replay, B), { timeout: 10_000 }).toBeGreaterThan(0);
    await videoOf(replay).evaluate((video: HTMLVideoElement) => video.pause());
  });

  await test.step('filters: one participant, and kinds', async () => {
    await scrubTo(replay, 30);
    await replay.getByLabel('Participant', { exact: true }).selectOption('Pat Participant');
    const pats = await listed(replay);
    expect(pats.filter((label) => /^\S+ (Message|Reaction) · /.test(label))).toEqual([
      '0:03 Message · Pat Participant: I see circles',
      '0:26 Message · Pat Participant: The colours changed',
    ]);
    // The prompts and the playback stay: they are what everyone saw.
    expect(pats).toContain(`0:02 Prompt for 1 s: ${PROMPT}`);
    expect(pats).toContain('0:24 Seek · Rhea Researcher');
    // The clicks were all the researcher's.
    await expect(caption(replay)).toHaveText(heatmapText(0, { from: '0:25', to: '0:35' }));
    await expect.poll(() => heatAt(replay, B)).toBe(0);

    await replay.getByLabel('Participant', { exact: true }).selectOption('Everyone');
    await replay.getByRole('checkbox', { name: /^Clicks/ }).uncheck();
    await expect(replay.locator('canvas.replay-heat')).toHaveCount(0);
    await expect(caption(replay)).toHaveText('Clicks are hidden');
    await replay.getByRole('checkbox', { name: /^Clicks/ }).check();
    await expect.poll(() => heatAt(replay, B)).toBeGreaterThan(0);
  });

  await test.step('screenshot and accessibility, at 1200 px and on a phone', async () => {
    // No focus ring from the last checkbox in the picture.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await replay.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await capture(page, 'replay-heatmap', replay);
    await expectAccessible(page, 'replay');
  });
});
