/** The bundled demo capture: opened by ?demo and by the empty state's button; a screenshot to look at. */
import { expect, test } from '@playwright/test';
import { captureNames, idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';

test('?demo opens the bundled demo capture; screenshot in test-results/demo.png', async ({ page }) => {
  await openApp(page, '?demo');
  await waitForCaptures(page, 1);
  const failed = await page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().failed);
  expect(failed).toEqual([]);
  await expect(page.getByTestId('empty-state')).toHaveCount(0);
  // A first look shows every kind of row: ranges, marks and counters, without scrolling.
  const tree = page.locator('.tl-tree-row');
  for (const label of ['Marks', 'Push/Pop', 'GPU memory in use', 'learning rate', 'loss']) {
    await expect(tree.filter({ hasText: new RegExp(`^${label}$`) }).first()).toBeInViewport({ ratio: 1 });
  }
  const counterRows = await page.evaluate(() => {
    type Tracks = { kind: string; label: string }[];
    const model = (window as unknown as HookedWindow).__nvtxview.store.getState().captures[0].model as unknown as { tracks: Tracks };
    return model.tracks.filter((t) => t.kind === 'counter').map((t) => t.label);
  });
  expect(counterRows).toContain('bytes read (running total)');
  await page.screenshot({ path: 'test-results/demo.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await idle(page);
  await page.screenshot({ path: 'test-results/demo-dark.png' });
});

test('the empty state opens the demo too', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Open demo capture' }).click();
  await waitForCaptures(page, 1);
  expect(await captureNames(page)).toHaveLength(1);
});
