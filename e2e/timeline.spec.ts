/** The timeline with the panels: rows, clicking a range, zooming with keys, selecting a span on the axis. */
import { expect, test, type Page } from '@playwright/test';
import { GOOD_NVTXT, dropFiles, findRange, idle, openApp, rangePoint, viewWidthNs, waitForCaptures, type HookedWindow } from './support.ts';

test.beforeEach(async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [GOOD_NVTXT]);
  await waitForCaptures(page, 1);
});

/** Page coordinates of time `tNs` (shared axis) on the canvas, `yOffset` px below its top edge. */
async function pointAt(page: Page, tNs: number, yOffset: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  const view = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    return { start: s.viewStartNs, end: s.viewEndNs };
  });
  return { x: box.x + ((tNs - view.start) / (view.end - view.start)) * box.width, y: box.y + yOffset };
}

test('the track tree shows the process, its threads and the category row', async ({ page }) => {
  const tree = page.getByRole('tree', { name: 'Tracks' });
  for (const label of ['Render loop', 'renderer (1844)', 'main (4880)', 'loader (4881)', 'Push/Pop', 'Marks', 'IO (2)']) {
    await expect(tree.getByRole('treeitem').filter({ hasText: label }).first()).toBeVisible();
  }
});

test('clicking a range shows its duration in the panel; Escape clears it', async ({ page }) => {
  const draw = await findRange(page, 'draw');
  const at = await rangePoint(page, draw.capture, draw.index);
  expect(at).not.toBeNull();
  await page.mouse.click(at!.x, at!.y);
  const details = page.getByTestId('range-details');
  await expect(details.getByTestId('detail-name')).toHaveText('draw');
  await expect(details.getByTestId('detail-duration')).toHaveText('6 ms');
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
});

test('W zooms in, S zooms out and F fits again', async ({ page }) => {
  const center = await pointAt(page, 5e6, 200);
  await page.mouse.move(center.x, center.y);
  const fitted = await viewWidthNs(page);

  await page.keyboard.down('w');
  await page.waitForTimeout(300);
  await page.keyboard.up('w');
  await idle(page);
  const zoomed = await viewWidthNs(page);
  expect(zoomed).toBeLessThan(fitted * 0.9);

  await page.keyboard.down('s');
  await page.waitForTimeout(150);
  await page.keyboard.up('s');
  await idle(page);
  expect(await viewWidthNs(page)).toBeGreaterThan(zoomed);

  await page.keyboard.press('f');
  await idle(page);
  expect(await viewWidthNs(page)).toBeCloseTo(fitted, -2);
});

test('dragging across the time axis selects a span and fills the per-name table', async ({ page }) => {
  const from = await pointAt(page, 2e6, 10);
  const to = await pointAt(page, 5e6, 10);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, from.y, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 3 });
  await page.mouse.up();
  await idle(page);

  const span = await page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().span);
  expect(span).not.toBeNull();
  // Within a couple of pixels of 2 ms .. 5 ms.
  expect(Math.abs(span!.startNs - 2e6)).toBeLessThan(100_000);
  expect(Math.abs(span!.endNs - 5e6)).toBeLessThan(100_000);

  // The statistics panel switches its scope to the span.
  const table = page.getByTestId('range-table');
  const rows = table.getByTestId('stats-row');
  await expect(rows).toHaveCount(5);
  await expect(rows.first().locator('.st-name')).toHaveText('frame');
  await table.getByRole('columnheader', { name: /^Range/ }).click();
  await expect(rows.first().locator('.st-name')).toHaveText('draw');
});
