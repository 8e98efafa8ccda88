/** The bundled demo capture: opened by ?demo and by the empty state's button; a screenshot to look at. */
import { expect, test } from '@playwright/test';
import { captureNames, openApp, waitForCaptures, type HookedWindow } from './support.ts';

test('?demo opens the bundled demo capture; screenshot in test-results/demo.png', async ({ page }) => {
  await openApp(page, '?demo');
  await waitForCaptures(page, 1);
  const failed = await page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().failed);
  expect(failed).toEqual([]);
  await expect(page.getByTestId('empty-state')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/demo.png' });
});

test('the empty state opens the demo too', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Open demo capture' }).click();
  await waitForCaptures(page, 1);
  expect(await captureNames(page)).toHaveLength(1);
});
