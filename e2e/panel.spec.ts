/** The side panel: details of the selected range, the per-name table of the selected span. */
import { expect, test } from '@playwright/test';
import { GOOD_NVTXT, dropFiles, findRange, openApp, waitForCaptures, type HookedWindow } from './support.ts';

test.beforeEach(async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [GOOD_NVTXT]);
  await waitForCaptures(page, 1);
});

test('a selected range shows its timing, parents and children', async ({ page }) => {
  const draw = await findRange(page, 'draw');
  await page.evaluate((sel) => (window as unknown as HookedWindow).__nvtxview.store.getState().select({ kind: 'range', ...sel }), draw);
  const details = page.getByTestId('range-details');
  await expect(details.getByTestId('detail-name')).toHaveText('draw');
  await expect(details.getByTestId('detail-duration')).toHaveText('6 ms');
  await expect(details.getByTestId('detail-start')).toHaveText('2.2 ms');
  await expect(details).toContainText('main (4880)');
  await expect(details).toContainText('renderer (1844)');

  // The parent chain leads to "frame": 9 ms, of which 1 ms is its own.
  await details.getByRole('button', { name: 'frame' }).click();
  await expect(details.getByTestId('detail-name')).toHaveText('frame');
  await expect(details.getByTestId('detail-duration')).toHaveText('9 ms');
  await expect(details.getByTestId('detail-self')).toHaveText('1 ms');
  await expect(details.getByRole('table')).toContainText('draw');
  await expect(details.getByRole('table')).toContainText('update');
});

test('a selected mark shows its time, thread and payload', async ({ page }) => {
  await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    s.select({ kind: 'mark', capture: s.captures[0].id, index: 0 });
  });
  const details = page.getByTestId('mark-details');
  await expect(details.getByTestId('detail-name')).toHaveText('vsync');
  await expect(details.getByTestId('detail-time')).toHaveText('4 ms');
  await expect(details).toContainText('loader (4881)');
  await expect(details).toContainText('0xFFFF0000');
});

test('a selected span lists the ranges in it by name, sortable', async ({ page }) => {
  // 2 ms .. 5 ms after the capture start: only the part of each range inside counts.
  await page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().setSpan({ startNs: 2e6, endNs: 5e6 }));
  const table = page.getByTestId('range-table');
  const rows = table.getByTestId('stats-row');
  await expect(rows).toHaveCount(5);
  const names = () => rows.locator('.st-name').allTextContents();
  // Default order: total time, descending.
  expect(await names()).toEqual(['frame', 'read assets', 'draw', 'read shaders', 'update']);
  await expect(rows.nth(0)).toContainText('3 ms');

  await table.getByRole('columnheader', { name: /^Range/ }).click();
  expect(await names()).toEqual(['draw', 'frame', 'read assets', 'read shaders', 'update']);
  await table.getByRole('columnheader', { name: /^Range/ }).click();
  expect(await names()).toEqual(['update', 'read shaders', 'read assets', 'frame', 'draw']);
  // Self time is one of the optional columns: frame keeps 100 µs of its 3 ms.
  await page.getByRole('button', { name: 'Columns ▾' }).click();
  await page.getByRole('dialog', { name: 'Columns' }).getByLabel('Self Time').check();
  await page.keyboard.press('Escape');
  await table.getByRole('columnheader', { name: /^Self/ }).click();
  expect((await names())[0]).toBe('read assets');
  await expect(rows.filter({ hasText: 'frame' })).toContainText('100 µs');

  // A row opens its distribution; "Slowest" selects its longest instance.
  await rows.filter({ hasText: 'update' }).click();
  await page.getByTestId('jump-slowest').click();
  await expect(page.getByTestId('range-details').getByTestId('detail-name')).toHaveText('update');
});
