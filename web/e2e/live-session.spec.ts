import { capture } from './support/screenshots';
import {
  chatLog,
  contextFor,
  driftsOf,
  expect,
  openLive,
  researcherVideo,
  sampleVideo,
  seedVideoSession,
  signUp,
  steadyDrifts,
  test,
  waitUntilLive,
  type SteadyDrifts,
} from './support/live-session';
import { emailOf } from './support/users';

const PROMPT = 'What do you notice about the pattern?';
const PROMPT_DURATION_S = 3;

const ms = (seconds: number) => Math.round(seconds * 1000);
/** Max and median of the steady samples in ms, and how many samples a stall left out, for the log. */
const summary = ({ steady, excluded }: SteadyDrifts) => {
  const sorted = [...steady].sort((a, b) => a - b);
  return {
    maxMs: ms(sorted.at(-1) ?? 0),
    medianMs: ms(sorted[Math.floor(sorted.length / 2)] ?? 0),
    samples: steady.length,
    leftOutAfterStalls: excluded.length,
  };
};

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

  await test.step('everyone opens the live session: the researcher has controls, participants a muted video', async () => {
    await Promise.all(everyone.map((page) => openLive(page, sessionId)));
    for (const page of everyone) await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(desk.locator('video')).toHaveJSProperty('controls', true);
    await expect(desk.getByRole('checkbox', { name: 'Allow Participant Clicks' })).toBeVisible();
    for (const page of participants) {
      await expect(page.locator('video')).toHaveJSProperty('controls', false);
      await expect(page.locator('video')).toHaveJSProperty('muted', true);
      await expect(page.getByRole('button', { name: 'Unmute video' })).toBeVisible();
      await expect(page.getByRole('checkbox', { name: 'Allow Participant Clicks' })).toHaveCount(0);
    }
    await expect(patPage.getByRole('button', { name: 'React with Applause' })).toBeVisible();
  });

  await test.step(`play: the prompt at 2 s pauses everyone, shows once in the chat, and resumes after ${PROMPT_DURATION_S} s`, async () => {
    await researcherVideo.play(desk);
    for (const page of everyone) {
      await expect.poll(async () => (await sampleVideo(page)).paused, { timeout: 6000 }).toBe(true);
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

  await test.step('steady playback: participants stay within 100 ms of the researcher', async () => {
    // Converged from the start: each player's start takes its own little while.
    await desk.waitForTimeout(3000);
    const steady = await steadyDrifts(desk, participants, { want: 24 });
    measured.steady = summary(steady);
    const trace = `\n${steady.trace.join('\n')}`;
    expect(steady.steady.length, `steady samples${trace}`).toBeGreaterThanOrEqual(24);
    expect(Math.max(...steady.steady), `largest steady drift${trace}`).toBeLessThan(0.1);
  });

  await test.step('pause, then a seek while paused, are followed exactly', async () => {
    await researcherVideo.pause(desk);
    for (const page of participants) {
      await expect.poll(async () => (await sampleVideo(page)).paused, { timeout: 3000 }).toBe(true);
    }
    // Paused, everyone shows the researcher's very frame.
    await expect
      .poll(async () => Math.max(...(await driftsOf(desk, participants)).map(Math.abs)))
      .toBeLessThan(0.001);
    await researcherVideo.seek(desk, 15);
    for (const page of participants) {
      await expect.poll(async () => (await sampleVideo(page)).time, { timeout: 3000 }).toBe(15);
    }
  });

  await test.step('a seek while playing: every participant is within 0.25 s of the researcher within 2 s', async () => {
    await researcherVideo.play(desk);
    await desk.waitForTimeout(2500);
    await researcherVideo.seek(desk, 8);
    await desk.waitForTimeout(2000);
    const drifts = await driftsOf(desk, participants);
    measured.twoSecondsAfterSeekMs = drifts.map(ms);
    expect(Math.max(...drifts.map(Math.abs))).toBeLessThan(0.25);
    for (const page of participants) expect((await sampleVideo(page)).paused).toBe(false);
  });

  await test.step("a participant's reload rejoins in sync", async () => {
    await patPage.reload();
    await waitUntilLive(patPage);
    await expect
      .poll(async () => Math.abs((await driftsOf(desk, [patPage]))[0] ?? 1), { timeout: 5000 })
      .toBeLessThan(0.1);
    const afterReload = await steadyDrifts(desk, participants, { want: 16 });
    measured.afterReload = summary(afterReload);
    const trace = `\n${afterReload.trace.join('\n')}`;
    expect(afterReload.steady.length, `steady samples${trace}`).toBeGreaterThanOrEqual(16);
    expect(Math.max(...afterReload.steady), `largest steady drift${trace}`).toBeLessThan(0.1);
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
    await expect.poll(async () => (await sampleVideo(desk)).paused, { timeout: 5000 }).toBe(false);
    await expect
      .poll(async () => Math.max(...(await driftsOf(desk, participants)).map(Math.abs)), { timeout: 5000 })
      .toBeLessThan(0.25);
    // Back before the prompt's second and through it: the server says it fired already.
    await researcherVideo.seek(desk, 1);
    await desk.waitForTimeout(2500);
    for (const page of everyone) {
      const sample = await sampleVideo(page);
      expect(sample.paused).toBe(false);
      expect(sample.time).toBeGreaterThan(2.5);
      await expect(chatLog(page).getByText(PROMPT)).toHaveCount(1);
    }
  });

  console.log(`[live-session] measured drift: ${JSON.stringify(measured)}`);
  await Promise.all(contexts.map((context) => context.close()));
});
