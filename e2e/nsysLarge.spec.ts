/**
 * An Nsight Systems export of several GB opens in the page: the worker reads it page by page from the
 * File (FileReaderSync), never as one buffer. Opt-in, the file is not committed: set
 * NVTXVIEW_NSYS_LARGE to the path of a big export (the real fixture's tables written after a 2.3 GB
 * filler table, see docs/performance.md, or one from testkit/gen/nsysLarge.ts, which
 * `bench:browser --only nsys --nsys-bytes N` measures) and NVTXVIEW_NSYS_LARGE_RANGES to its NVTX
 * push/pop range count.
 */
import { statSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openApp, waitForCaptures, type HookedWindow } from './support.ts';

const path = process.env.NVTXVIEW_NSYS_LARGE;

test('a multi-GB nsys export opens in the page', async ({ page }) => {
  test.skip(!path, 'set NVTXVIEW_NSYS_LARGE to the path of a big export');
  test.setTimeout(300_000);
  await openApp(page);
  const started = Date.now();
  // A path, not a buffer: Chromium hands the page a File backed by the file on disk.
  await page.getByTestId('open-input').setInputFiles(path!);
  await waitForCaptures(page, 1, 280_000);
  const ms = Date.now() - started;
  const result = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    const m = s.captures[0]?.model as unknown as { tracks: Array<{ kind: string; rangeBegin: number; rangeEnd: number }> } | undefined;
    return {
      failed: s.failed,
      pushpop: m ? m.tracks.filter((t) => t.kind === 'pushpop').reduce((n, t) => n + t.rangeEnd - t.rangeBegin, 0) : -1,
    };
  });
  expect(result.failed).toEqual([]);
  expect(result.pushpop).toBe(Number(process.env.NVTXVIEW_NSYS_LARGE_RANGES ?? result.pushpop));
  console.log(`${path}: ${(statSync(path!).size / 1e9).toFixed(2)} GB opened in ${ms} ms`);
});
