import type { DeviceCheckItem } from '@uis/proto';
import type { BrowserContext, Page } from '@playwright/test';
import { api, enterSession, signUpThroughApi } from './support/api';
import { expectAccessible } from './support/axe';
import { callTest as test, chatSession, signedInContext, type Tokens } from './support/call-session';
import { parseCsv } from './support/csv';
import { capture } from './support/screenshots';
import { stack } from './support/stack-env';
import { changeCallSettings, closeChangedContext } from './support/turn';
import { expect } from './support/test';
import { emailOf } from './support/users';
import { unzip } from './support/zip';
import {
  CHECK_RESULT_TEXTS,
  CHECK_STATUS_TEXTS,
  MEDIA_FAILURE_TEXTS,
  DEVICE_CHECK_TEXTS,
} from '../src/i18n/en/device-check';
import { DEVICE_CHECK_ITEM_TEXTS } from '../src/i18n/en/common';
import { RECORD_PANEL_TEXTS } from '../src/i18n/en/records';

/**
 * The pre-session check in Chromium with fake devices: every item passes through the
 * run's coturn; a denied camera fails the camera alone; a TURN server that does not answer fails
 * the relay with its message. Each result reaches the researcher (API, records panel) and the export.
 */

const checkPath = (sessionId: string) => `/check/:${sessionId}`;
const item = (page: Page, label: string) => page.getByRole('listitem', { name: label, exact: true });
const LABELS = DEVICE_CHECK_ITEM_TEXTS;

/** Opens the check for `tokens`' user, runs it and answers the speakers' question; logs its time. */
async function runCheck(context: BrowserContext, sessionId: string, label: string): Promise<Page> {
  const page = await context.newPage();
  const done = page.waitForEvent('console', {
    predicate: (message) => message.text().startsWith('[device-check]'),
    timeout: 30_000,
  });
  await page.goto(checkPath(sessionId));
  await page.getByRole('button', { name: DEVICE_CHECK_TEXTS.start }).click();
  // Once in CI (two specs at once) the first click left the button as it was and no question came;
  // unexplained yet (see the closing note), so a second click, as a person would, is allowed.
  await expect(async () => {
    await page.getByRole('button', { name: /^Play (a test sound|it again)$/ }).click();
    await expect(page.getByRole('button', { name: 'Yes' })).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Yes' }).click();
  console.log(`${(await done).text()} (${label})`);
  await expect(page.getByRole('status').filter({ hasText: 'The result is saved' })).toBeVisible();
  return page;
}

const expectItem = async (page: Page, key: DeviceCheckItem, status: 'pass' | 'fail', text?: string) => {
  await expect(item(page, LABELS[key])).toContainText(CHECK_STATUS_TEXTS[status]);
  if (text) await expect(item(page, LABELS[key])).toContainText(text);
};

async function exportedChecks(sessionId: string, researcher: Tokens): Promise<Record<string, string>[]> {
  const answer = await fetch(`${stack().baseUrl}/exportStudy?sessionId=${sessionId}`, {
    headers: { Authorization: `Bearer ${researcher.accessToken}` },
  });
  expect(answer.status).toBe(200);
  const csv = unzip(Buffer.from(await answer.arrayBuffer())).get('device-checks.csv');
  const [header = [], ...rows] = parseCsv(csv!.toString('utf8'));
  return rows.map((row) => Object.fromEntries(header.map((column, i) => [column, row[i] ?? ''])));
}

test('the pre-session check: all pass with fake devices, a denied camera fails alone, a dead relay fails with its message', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { sessionId, researcher } = await chatSession(emailOf('check-rhea'), 'Rhea Lab', 'Checked call');
  const patEmail = emailOf('check-pat');
  const pat = await signUpThroughApi(patEmail, 'Pat Check');
  await enterSession(sessionId, pat.accessToken);

  await test.step('the participant’s sessions list links to it', async () => {
    const context = await signedInContext(browser, pat);
    const page = await context.newPage();
    await page.goto('/sessions');
    // This session's link: the list also holds other tests' sessions scoped to Everyone.
    await page.locator(`a[href$="/check/:${sessionId}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/check/:${sessionId}$`));
    await expect(page.getByRole('heading', { name: 'Check your camera and microphone' })).toBeVisible();
    await context.close();
  });

  await test.step('with fake devices every item passes, the preview shows frames, the meter moves', async () => {
    const context = await signedInContext(browser, pat);
    const page = await runCheck(context, sessionId, 'all pass');
    for (const key of Object.keys(LABELS) as DeviceCheckItem[]) await expectItem(page, key, 'pass');
    await expectItem(page, 'turn', 'pass', CHECK_RESULT_TEXTS.turnReached);
    expect(
      await page
        .getByLabel('Your camera')
        .evaluate((video: HTMLVideoElement) => video.readyState >= 2 && video.videoWidth > 0),
    ).toBe(true);
    expect(await page.locator('meter').evaluate((meter: HTMLMeterElement) => meter.value)).toBeGreaterThan(0);
    await expectAccessible(page, 'device-check');
    await capture(page, 'device-check');
    await context.close();
  });

  await test.step('a denied camera fails the camera with what to do; the rest pass', async () => {
    const context = await signedInContext(browser, pat);
    await context.addInitScript(() => {
      const native = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = (constraints) =>
        constraints?.video
          ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
          : native(constraints);
    });
    const page = await runCheck(context, sessionId, 'denied camera');
    await expectItem(page, 'camera', 'fail', MEDIA_FAILURE_TEXTS.notAllowed('camera'));
    await expectItem(page, 'camera', 'fail', MEDIA_FAILURE_TEXTS.notAllowedAdvice('camera'));
    for (const key of ['microphone', 'speakers', 'stun', 'turn', 'rtt'] as const)
      await expectItem(page, key, 'pass');
    await expectAccessible(page, 'device-check-failed');
    await context.close();
  });

  await test.step('a TURN server that does not answer fails the relay with its message', async () => {
    const context = await signedInContext(browser, pat);
    // The run's coturn stays up for the other specs: this page is handed a port where nothing listens.
    await changeCallSettings(context, (settings) => ({
      ...settings,
      iceServers: settings.iceServers.map((server) => ({
        ...server,
        urls: (Array.isArray(server.urls) ? server.urls : [server.urls]).map((url) =>
          url.replace(/:(\d+)(\?|$)/, ':9$2'),
        ),
      })),
    }));
    const page = await runCheck(context, sessionId, 'relay down');
    await expectItem(page, 'turn', 'fail', CHECK_RESULT_TEXTS.turnNotReached);
    await expectItem(page, 'camera', 'pass');
    await closeChangedContext(context);
  });

  await test.step('the researcher reads each result (API, records panel) and exports it', async () => {
    const { checks } = await api('getDeviceChecks', { sessionId }, researcher.accessToken);
    expect(checks.map((check) => [check.name, check.camera, check.turn, check.browserName])).toEqual([
      ['Pat Check', 'pass', 'pass', 'Chrome'],
      ['Pat Check', 'fail', 'pass', 'Chrome'],
      ['Pat Check', 'pass', 'fail', 'Chrome'],
    ]);
    expect(JSON.stringify(checks)).not.toMatch(/data:|blob:/);

    const rows = await exportedChecks(sessionId, researcher);
    // The person as a participant_id, the same in every check (e-mails only in identifiers.csv).
    expect(rows.map((row) => [row.device_check_id, row.session_id, row.camera, row.turn])).toEqual(
      checks.map((check) => [check.device_check_id, sessionId, check.camera, check.turn]),
    );
    expect(new Set(rows.map((row) => row.participant_id)).size).toBe(1);

    const context = await signedInContext(browser, researcher);
    const editor = await context.newPage();
    await editor.goto(`/editSession/:${sessionId}`);
    await editor.getByRole('tab', { name: RECORD_PANEL_TEXTS.deviceChecks }).click();
    const panel = editor.getByRole('tabpanel');
    await expect(panel.getByRole('row')).toHaveCount(4);
    await expect(panel.getByRole('row').nth(2)).toContainText('Fail');
    await context.close();
  });
});
