/**
 * A capture whose model does not fit in the page's memory: the tab does not crash, the model of what
 * was read is shown, and the load report says where loading stopped (issue 15 §4). The limit is the
 * page's `?memoryLimitMB=` budget, so the path runs the same on any machine.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateFile } from '../testkit/gen/main.ts';
import { idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';

/** A generated capture in a temporary folder, removed after `use` (made inside the test: the runner's own process loads this file too). */
async function withCapture(format: string, ext: string, use: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'nvtxview-e2e-oom-'));
  try {
    const path = join(dir, `big.${ext}`);
    await generateFile(path, format, { events: 300_000, seed: 7 });
    await use(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [format, ext] of [
  ['nvtxc', 'nvtxc'],
  ['chrome-json', 'json'],
] as const) {
  test(`a ${format} capture over the memory limit shows what was read and where it stopped`, async ({ page }) => {
    test.setTimeout(120_000);
    await withCapture(format, ext, async (path) => {
      const size = statSync(path).size;
      await openApp(page, '?memoryLimitMB=2');
      await page.getByTestId('open-input').setInputFiles(path);
      await waitForCaptures(page, 1, 100_000);
      await idle(page);

      const report = page.getByTestId('load-report');
      await expect(report).toBeVisible();
      await expect(report).toContainText('does not fit in memory');
      await expect(report).toContainText(`of ${size}`);
      const text = (await report.textContent()) ?? '';
      const at = Number(/at byte (\d+) of/.exec(text)?.[1]);
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(size);

      const shown = await page.evaluate(() => {
        const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
        const m = s.captures[0].model as unknown as { ranges: { startNs: Float64Array }; capture: { properties: Record<string, string> } };
        return { failed: s.failed.length, ranges: m.ranges.startNs.length, loaded: m.capture.properties['loaded only'] };
      });
      expect(shown.failed).toBe(0);
      expect(shown.ranges).toBeGreaterThan(1000);
      expect(shown.loaded).toBe(`bytes 0..${at}`);
      await expect(page.getByTestId('report-button')).toHaveText(/1 error/);
      await page.screenshot({ path: test.info().outputPath('out-of-memory.png') });
    });
  });
}

test('without a limit the same capture loads whole', async ({ page }) => {
  test.setTimeout(120_000);
  await withCapture('nvtxc', 'nvtxc', async (path) => {
    await openApp(page);
    await page.getByTestId('open-input').setInputFiles(path);
    await waitForCaptures(page, 1, 100_000);
    await idle(page);
    const issues = await page.evaluate(() => {
      const model = (window as unknown as HookedWindow).__nvtxview.store.getState().captures[0].model as unknown as { issues: { message: string }[] };
      return model.issues.map((i) => i.message);
    });
    expect(issues.filter((m) => m.includes('does not fit'))).toEqual([]);
  });
});
