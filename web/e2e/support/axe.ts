import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { MOBILE, settle } from './screenshots';

/**
 * axe-core's check of a screen against WCAG 2.1 A and AA, in both layouts the screens have. Only
 * what axe rates serious or critical fails the test; the failure lists each violation's rule,
 * impact, help and the nodes it found, so it reads without the trace.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** WCAG 2.5.3 (label in name): axe ships it as experimental, so it is turned on by name. */
const LABEL_IN_NAME = 'label-content-name-mismatch';
const FAILING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

const describe = (violation: Violation): string =>
  [
    `  ${violation.id} (${violation.impact}): ${violation.help} ${violation.helpUrl}`,
    ...violation.nodes.map(
      (node) => `    ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s*\n\s*/g, ' ')}`,
    ),
  ].join('\n');

async function check(page: Page, screen: string): Promise<void> {
  // options() replaces every option, withTags() adds one: in this order.
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { [LABEL_IN_NAME]: { enabled: true } } })
    .withTags(WCAG_TAGS)
    .analyze();
  const failing = violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''));
  expect
    .soft(
      failing.map((violation) => violation.id),
      `${screen}:\n${failing.map(describe).join('\n')}`,
    )
    .toEqual([]);
}

/**
 * Runs axe on the page as it is, then again at the phone's size (the app's mobile rules apply), and
 * returns to the size it had. Soft: a test goes on through its other screens, so one run reports
 * them all.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const size = page.viewportSize();
  await check(page, `${screen} (${size ? `${size.width}x${size.height}` : 'desktop'})`);
  if (!size) return;
  await page.setViewportSize(MOBILE);
  await settle(page);
  await check(page, `${screen} (${MOBILE.width}x${MOBILE.height})`);
  await page.setViewportSize(size);
  await settle(page);
}
