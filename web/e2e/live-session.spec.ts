import { capture } from './support/screenshots';
import {
  FOLLOW,
  chatLog,
  contextFor,
  driftsOf,
  expect,
  expectFollowedSteadily,
  openLive,
  researcherVideo,
  sampleVideo,
  seedVideoSession,
  signUp,
  steadyDrifts,
  steadySummary,
  test,
  waitUntilLive,
} from './support/live-session';
import { emailOf } from './support/users';
import { LIVE_CONTROL_TEXTS } from '../src/i18n/en/live-session';

const PROMPT = 'What do you notice about the pattern?';
const PROMPT_DURATION_S = 3;

const ms = (seconds: number) => Math.round(seconds * 1000);
const largest = (drifts: number[]) => Math.max(...drifts.map(Math.abs));

test('a researcher and two participants share playback: prompts, pause, seeks and reloads are followed', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const [rhea, pat, quinn] = await Promise.all([
    signUp(emailOf('live-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('live-pat'), 'Pat Participant'),
    signUp(emailOf('live-quinn'), 'Quinn Participant'),
  ]);
  const { sessionId, title } = await seedVideoSession(rhea, {
    title: 'Pattern viewing',
    actions: [
      { name: 'Applause', icon: 'celebration', type: 'outlined', color: '#e91e63' },
      { name: 'Confused', icon: 'help', type: 'round', color: '#3557d4' },
    ],
    prompts: [{ time: '00:00:02', duration: PROMPT_DURATION_S, prompt: PROMPT }],
  });
  const contexts = await Promise.all([rhea, pat, quinn].map((person) => contextFor(browser, person)));
  const [desk, patPage, quinnPage] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!desk || !patPage || !quinnPage) throw new Error('three pages');
  const participants = [patPage, quinnPage];
  const everyone = [desk, ...participants];
  const measured: Record<string, unknown> = {};

  await test.step('everyone opens the live session: the researcher has controls, participants pass the sound gate and hear the video', async () => {
    await Promise.all(everyone.map((page) => openLive(page, sessionId)));
    for (const page of everyone) await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(desk.locator('video')).toHaveJSProperty('controls', true);
    await expect(desk.getByRole('checkbox', { name: 'Allow Participant Clicks' })).toBeVisible();
    for (const page of participants) {
      await expect(page.locator('video')).toHaveJSProperty('controls', false);
      // openLive passed the sound gate with 'I hear it': the video plays with sound.
      await expect(page.locator('video')).toHaveJSProperty('muted', false);
      await expect(page.getByRole('button', { name: LIVE_CONTROL_TEXTS.muteVideo })).toBeVisible();
      await expect(page.getByRole('checkbox', { name: 'Allow Participant Clicks' })).toHaveCount(0);
    }
    await expect(patPage.getByRole('button', { name: 'React with Applause' })).toBeVisible();
  });

  await test.step(`play: the prompt at 2 s pauses everyone, shows once in the chat, and resumes after ${PROMPT_DURATION_S} s`, async () => {
    await researcherVideo.play(desk);
    for (const page of everyone) {
      await expect
        .poll(async () => (await sampleVideo(page)).paused, { timeout: FOLLOW.withinMs })
        .toBe(true);
    }
    const pausedAt = await Promise.all(everyone.map(sampleVideo));
    // In the prompt's second. Where in it (the firePrompt round trip, a timer late under load: 2.35 s
    // once in CI with other jobs running) is measured, not asserted.
    for (const sample of pausedAt) {
      expect(sample.time).toBeGreaterThanOrEqual(2);
      expect(sample.time).toBeLessThan(3);
    }
    measured.promptPauseLateMs = ms(Math.max(...pausedAt.map((s) => s.time)) - 2);
    measured.promptPauseSpreadMs = ms(
      Math.max(...pausedAt.map((s) => s.time)) - Math.min(...pausedAt.map((s) => s.time)),
    );
    for (const page of everyone) {
      await expect(chatLog(page).getByText(PROMPT)).toHaveCount(1);
    }
    // Resumes by itself after the duration, everyone with it.
    for (const page of everyone) {
      await expect
        .poll(async () => (await sampleVideo(page)).paused, { timeout: (PROMPT_DURATION_S + 3) * 1000 })
        .toBe(false);
    }
  });

  await test.step('steady playback: participants stay with the researcher', async () => {
    // Converged from the start: each player's start takes its own little while.
    await desk.waitForTimeout(3000);
    const steady = await steadyDrifts(desk, participants, { want: 24 });
    measured.steady = steadySummary(steady);
    expectFollowedSteadily(steady, 24);
  });

  await test.step('pause, then a seek while paused, are followed exactly', async () => {
    await researcherVideo.pause(desk);
    for (const page of participants) {
      await expect
        .poll(async () => (await sampleVideo(page)).paused, { timeout: FOLLOW.withinMs })
        .toBe(true);
    }
    // Paused, everyone shows the researcher's very frame.
    await expect.poll(async () => largest(await driftsOf(desk, participants))).toBeLessThan(0.001);
    await researcherVideo.seek(desk, 15);
    for (const page of participants) {
      await expect.poll(async () => (await sampleVideo(page)).time, { timeout: FOLLOW.withinMs }).toBe(15);
    }
  });

  await test.step('a seek while playing: every participant follows it, playing', async () => {
    await researcherVideo.play(desk);
    await desk.waitForTimeout(2500);
    await researcherVideo.seek(desk, 8);
    const sought = Date.now();
    const playingNear = async () => {
      const paused = await Promise.all(participants.map(async (page) => (await sampleVideo(page)).paused));
      return paused.some(Boolean) ? Infinity : largest(await driftsOf(desk, participants));
    };
    await expect.poll(playingNear, { timeout: FOLLOW.withinMs, intervals: [100] }).toBeLessThan(FOLLOW.nearS);
    measured.followedSeekInMs = Date.now() - sought;
    measured.afterSeekMs = (await driftsOf(desk, participants)).map(ms);
  });

  await test.step("a participant's reload rejoins in sync", async () => {
    await patPage.reload();
    await waitUntilLive(patPage);
    const reloaded = Date.now();
    await expect
      .poll(async () => largest(await driftsOf(desk, [patPage])), { timeout: FOLLOW.withinMs })
      .toBeLessThan(FOLLOW.nearS);
    measured.rejoinedInMs = Date.now() - reloaded;
    const afterReload = await steadyDrifts(desk, participants, { want: 16 });
    measured.afterReload = steadySummary(afterReload);
    expectFollowedSteadily(afterReload, 16);
  });

  await test.step('the chat and reactions show for everyone; the live screen at both sizes', async () => {
    await patPage.getByRole('button', { name: 'React with Applause' }).click();
    await quinnPage.getByRole('textbox', { name: 'Message' }).fill('The colours keep turning.');
    await quinnPage.keyboard.press('Enter');
    for (const page of everyone) {
      await expect(chatLog(page).getByText('Pat Participant reacted with Applause')).toBeVisible();
      await expect(chatLog(page).getByText('The colours keep turning.')).toBeVisible();
    }
    await researcherVideo.pause(desk);
    await expect.poll(async () => (await sampleVideo(patPage)).paused).toBe(true);
    // 'live-video', the README's, is accessibility.spec.ts's: one spec writes each docs/screenshots file.
    await capture(patPage, 'live-video-participant', patPage.getByRole('region', { name: 'Video' }));
    await capture(desk, 'live-video-researcher');
  });

  await test.step("the researcher's reload continues where the session is, and the prompt does not fire again", async () => {
    await researcherVideo.play(desk);
    await desk.waitForTimeout(1000);
    await desk.reload();
    await waitUntilLive(desk);
    // It continues from the room's status: playing, where the participants are.
    await expect.poll(async () => (await sampleVideo(desk)).paused, { timeout: FOLLOW.withinMs }).toBe(false);
    await expect
      .poll(async () => largest(await driftsOf(desk, participants)), { timeout: FOLLOW.withinMs })
      .toBeLessThan(FOLLOW.nearS);
    // Back before the prompt's second and through it: the server says it fired already.
    await researcherVideo.seek(desk, 1);
    // Everyone plays through the prompt's second: a page seen paused in it would have fired it again.
    const pausedInPromptSecond = new Set<number>();
    await expect
      .poll(
        async () => {
          const samples = await Promise.all(everyone.map(sampleVideo));
          samples.forEach((sample, i) => {
            if (sample.paused && sample.time >= 2 && sample.time < 3) pausedInPromptSecond.add(i);
          });
          return Math.min(...samples.map((sample) => sample.time));
        },
        { timeout: FOLLOW.withinMs, intervals: [100] },
      )
      .toBeGreaterThan(3.2);
    expect([...pausedInPromptSecond], 'pages seen paused in the prompt’s second').toEqual([]);
    for (const page of everyone) await expect(chatLog(page).getByText(PROMPT)).toHaveCount(1);
  });

  console.log(`[live-session] measured drift: ${JSON.stringify(measured)}`);
  await Promise.all(contexts.map((context) => context.close()));
});
