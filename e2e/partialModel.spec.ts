/**
 * A big capture's partial model: a second worker decodes the file's start (src/worker/preview.ts)
 * while the first decodes the whole file; the page shows the start, then the whole capture in its
 * place. The capture is generated (about 107 MB, over the native preview threshold) and deleted.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateFile } from '../testkit/gen/main.ts';
import { PREVIEW_MIN_BYTES } from '../src/worker/preview.ts';
import { openApp, waitForCaptures } from './support.ts';

/** What this test reads of the page's store, and what it keeps in the page. */
type PartialWindow = Window & {
  seen: Array<{ partial: boolean; events: number }>;
  __nvtxview: {
    store: {
      getState(): {
        captures: { partial?: boolean; model: { ranges: { startNs: Float64Array }; marks: { timeNs: Float64Array } } }[];
        failed: unknown[];
      };
      subscribe(listener: () => void): () => void;
    };
  };
};

let dir = '';
let path = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), 'nvtxview-partial-'));
  path = join(dir, 'big.nvtxc');
  await generateFile(path, 'nvtxc', { events: 6_500_000, seed: 3 });
  expect(statSync(path).size).toBeGreaterThan(PREVIEW_MIN_BYTES.nvtxc);
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a big native capture shows its start from a second worker, then the whole capture in its place', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page);
  // Every capture the store held, as (partial, event count), in order of appearance.
  await page.evaluate(() => {
    const w = window as unknown as PartialWindow;
    w.seen = [];
    const note = () => {
      for (const c of w.__nvtxview.store.getState().captures) {
        const events = c.model.ranges.startNs.length + c.model.marks.timeNs.length;
        const last = w.seen[w.seen.length - 1];
        if (!last || last.partial !== !!c.partial || last.events !== events) w.seen.push({ partial: !!c.partial, events });
      }
    };
    w.__nvtxview.store.subscribe(note);
  });
  await page.getByTestId('open-input').setInputFiles(path);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as PartialWindow).seen.some((s) => !s.partial)), { timeout: 170_000 })
    .toBe(true);
  await waitForCaptures(page, 1, 10_000);
  const { seen, failed, captures } = await page.evaluate(() => {
    const w = window as unknown as PartialWindow;
    const s = w.__nvtxview.store.getState();
    return { seen: w.seen, failed: s.failed, captures: s.captures.length };
  });
  expect(failed).toEqual([]);
  expect(captures).toBe(1);
  // The start first (a model of its own), then the whole capture replacing it.
  expect(seen.length).toBe(2);
  expect(seen[0].partial).toBe(true);
  expect(seen[1].partial).toBe(false);
  expect(seen[0].events).toBeGreaterThan(0);
  expect(seen[0].events).toBeLessThan(seen[1].events / 4);
  // The whole-file worker held once while the page took the start in, and was let go again.
  const holds = await page.evaluate(() => (window as unknown as { __nvtxview: { loadHolds: { holdMs: number }[] } }).__nvtxview.loadHolds);
  expect(holds).toHaveLength(1);
  expect(holds[0].holdMs).toBeGreaterThan(0);
});

test('the held whole-file worker goes on once the timeline has drawn the partial model, without waiting for an idle page', async ({ page }) => {
  test.setTimeout(180_000);
  // A page that is never idle: only the partial model's drawing can let the whole-file worker go on.
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  await openApp(page);
  await page.getByTestId('open-input').setInputFiles(path);
  const holds = () => page.evaluate(() => (window as unknown as { __nvtxview: { loadHolds: { holdMs: number }[] } }).__nvtxview.loadHolds.length);
  // Resumed by the drawing well before the worker's own bound on a hold would let it go.
  await expect.poll(holds, { timeout: 60_000 }).toBe(1);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as PartialWindow).__nvtxview.store.getState().captures.some((c) => !c.partial)), { timeout: 170_000 })
    .toBe(true);
});
