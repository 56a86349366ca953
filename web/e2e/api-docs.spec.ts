import { API_DOCS_PATH, routeList } from '@uis/proto';
import { capture } from './support/screenshots';
import { expect, test } from './support/test';

test('/api/docs lists every route of proto, as the OpenAPI document the build made from it', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(API_DOCS_PATH);
  await expect(page.getByRole('heading', { name: /User Interaction Simulator API/ })).toBeVisible();
  const operations = page.locator('.opblock-summary');
  await expect(operations).toHaveCount(routeList.length);
  const shown = await operations.evaluateAll((blocks) =>
    blocks.map(
      (block) =>
        `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
    ),
  );
  const expected = routeList.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
  expect(shown.sort()).toEqual(expected.sort());
  // Swagger UI runs under the app's Content-Security-Policy and loads nothing from elsewhere.
  expect(errors).toEqual([]);
  await capture(page, 'api-docs');
});
