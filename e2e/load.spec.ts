/** Loading files: drop and Open, the load report, whole-file failures, Cancel. */
import { expect, test } from '@playwright/test';
import { BAD_NVTXT, GOOD_NVTXT, captureNames, dropFiles, idle, interceptFileChoosers, openApp, waitForCaptures, type HookedWindow } from './support.ts';

test('the empty page explains what it opens', async ({ page }) => {
  await openApp(page);
  const empty = page.getByTestId('empty-state');
  await expect(empty).toBeVisible();
  await expect(empty).toContainText('NVTXT text');
  await expect(empty.getByRole('button', { name: 'Open demo capture' })).toBeVisible();
});

test('dropping a good and a bad file loads both and lists the bad one\'s errors by line', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [GOOD_NVTXT, BAD_NVTXT]);
  await waitForCaptures(page, 2);
  expect((await captureNames(page)).sort()).toEqual(['Render loop', 'broken.nvtxt']);

  // New errors open the report; the header counts them.
  await expect(page.getByTestId('report-button')).toHaveText(/3 errors/);
  const report = page.getByTestId('load-report');
  await expect(report).toBeVisible();
  const rows = report.getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('broken.nvtxt');
  await expect(rows.nth(0)).toContainText('line 3');
  await expect(rows.nth(0)).toContainText('expected Integer for Time');
  await expect(rows.nth(1)).toContainText('line 4');
  await expect(rows.nth(1)).toContainText('$undefinedVar');
  await expect(rows.nth(2)).toContainText('line 5');
  await expect(rows.nth(2)).toContainText('unknown command "Bogus"');

  // Filtering by severity.
  await report.getByRole('button', { name: /^Warnings/ }).click();
  await expect(report.getByRole('row')).toHaveCount(0);
  await report.getByRole('button', { name: /^Errors/ }).click();
  await expect(report.getByRole('row')).toHaveCount(3);
});

test('a file nothing can read gets a clear error entry while the others load', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [{ name: 'notes.bin', text: '\u0000\u0001\u0002 not a capture at all \u00ff' }, GOOD_NVTXT]);
  await waitForCaptures(page, 1);
  const failure = page.getByTestId('load-failure');
  await expect(failure).toContainText('Could not load');
  await expect(failure).toContainText('notes.bin');
  await expect(failure).toContainText('not a format nvtxview knows');
  await expect(page.getByTestId('load-report')).toContainText('notes.bin');
  await failure.getByRole('button', { name: 'Dismiss' }).click();
  await expect(failure).toHaveCount(0);
});

test('dragging files over the page shows the drop overlay', async ({ page }) => {
  await openApp(page);
  const drag = (type: string) =>
    page.evaluate((t) => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'x.nvtxt'));
      document.body.dispatchEvent(new DragEvent(t, { dataTransfer: data, bubbles: true, cancelable: true }));
    }, type);
  await drag('dragenter');
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await drag('dragleave');
  await expect(page.getByTestId('drop-overlay')).toHaveCount(0);
});

test('the Open button and Ctrl+O open the file picker, which loads the files', async ({ page }) => {
  await openApp(page);
  // The shortcut listener is attached once the shell has rendered and settled (on a busy machine
  // the hook above can be ready a little before it).
  await expect(page.getByRole('button', { name: 'Open…' })).toBeVisible();
  await interceptFileChoosers(page);
  const [viaKey] = await Promise.all([page.waitForEvent('filechooser', { timeout: 15_000 }), page.keyboard.press('Control+o')]);
  expect(viaKey.isMultiple()).toBe(true);
  const viaButton = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open…' }).click();
  await viaButton;
  await page.getByTestId('open-input').setInputFiles([
    { name: GOOD_NVTXT.name, mimeType: 'text/plain', buffer: Buffer.from(GOOD_NVTXT.text) },
  ]);
  await waitForCaptures(page, 1);
  await expect(page.getByRole('list', { name: 'Loaded captures' })).toContainText('Render loop');
});

test('Cancel stops a long load and leaves the page usable', async ({ page }) => {
  await openApp(page);
  // About 200 MiB of NVTXT, made in the page so that nothing large crosses the test protocol.
  await page.evaluate(() => {
    const lines: string[] = [];
    for (let i = 0; i < 8000; i++) {
      lines.push(`RangePush, ${i * 1000}, ns, 1, 2, 0, 0, "step ${i % 50}", ${i}`, `RangePop, ${i * 1000 + 400}, ns, 1, 2`);
    }
    const chunk = new TextEncoder().encode(lines.join('\n') + '\n');
    const parts: BlobPart[] = [];
    for (let size = 0; size < 200 * 1024 * 1024; size += chunk.length) parts.push(chunk);
    const file = new File(parts, 'huge.nvtxt');
    const data = new DataTransfer();
    data.items.add(file);
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  const progress = page.getByTestId('load-progress');
  await expect(progress).toContainText('huge.nvtxt');
  await expect(progress).toContainText(/B \/ 200 MiB · \d+%/);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveCount(0);
  await idle(page);
  const state = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    return { captures: s.captures.length, loads: s.loads.length, failed: s.failed.length };
  });
  expect(state).toEqual({ captures: 0, loads: 0, failed: 0 });
  // Still responsive: the shortcuts dialog opens and closes.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
});

test('the theme follows the choice in the header', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const dark = await background();
  await page.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await background()).toBe('rgb(255, 255, 255)');
  expect(dark).not.toBe('rgb(255, 255, 255)');
  // The choice survives a reload.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('changing the Qpc tick rate reloads the files that use it', async ({ page }) => {
  await openApp(page);
  const qpc = { name: 'qpc.nvtxt', text: 'RangePush, 1000, Qpc, 1, 2, 0, 0, "tick", 0\nRangePop, 2000, Qpc, 1, 2\n' };
  await dropFiles(page, [qpc, GOOD_NVTXT]);
  await waitForCaptures(page, 2);
  const durations = () =>
    page.evaluate(() =>
      (window as unknown as HookedWindow).__nvtxview.store
        .getState()
        .captures.map((c) => [c.model.capture.displayName, (c.model as unknown as { durationNs: number }).durationNs] as const)
        .sort(),
    );
  // 1000 ticks at the default 10 MHz; the report says the default was assumed.
  expect(await durations()).toEqual([
    ['Render loop', 9e6],
    ['qpc.nvtxt', 100_000],
  ]);
  await expect(page.getByTestId('report-button')).toHaveText(/1 note/);

  await page.getByRole('button', { name: 'Tick rates' }).click();
  const field = page.getByLabel('Qpc tick rate in MHz');
  await field.fill('20');
  await field.press('Enter');
  await expect.poll(durations).toEqual([
    ['Render loop', 9e6],
    ['qpc.nvtxt', 50_000],
  ]);
  await idle(page);
  await expect(page.getByTestId('report-button')).toHaveText('No problems');
});
