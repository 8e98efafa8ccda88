/**
 * Nsight Systems SQLite exports in the browser: the SQLite engine (WebAssembly from our own build)
 * loads in the worker from the sub-path the site is served under, and the real export shows its
 * NVTX, CUDA API and GPU rows.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { dropBinary, findRange, idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';
import { NSYS_FIXTURE } from '../testkit/fixtures.ts';

const FIXTURE = NSYS_FIXTURE;

interface RowSummary {
  kind: string;
  label: string;
  path: string[];
  thread: string;
  ranges: number;
}

async function rowSummary(page: Page): Promise<RowSummary[]> {
  return page.evaluate(() => {
    const m = (window as unknown as HookedWindow).__nvtxview.store.getState().captures[0].model as unknown as {
      tracks: Array<{ kind: string; label: string; path: string[]; thread: number; rangeBegin: number; rangeEnd: number }>;
      threads: Array<{ name: string }>;
    };
    return m.tracks.map((t) => ({
      kind: t.kind,
      label: t.label,
      path: t.path,
      thread: t.thread >= 0 ? m.threads[t.thread].name : '',
      ranges: t.rangeEnd - t.rangeBegin,
    }));
  });
}

test('a dropped nsys SQLite export shows NVTX, CUDA API and GPU rows', async ({ page }) => {
  await openApp(page);
  await dropBinary(page, 'fuser-report1.sqlite', new Uint8Array(readFileSync(FIXTURE)));
  await waitForCaptures(page, 1);
  const failed = await page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().failed);
  expect(failed).toEqual([]);

  const rows = await rowSummary(page);
  const sum = (pick: (r: RowSummary) => boolean) => rows.filter(pick).reduce((n, r) => n + r.ranges, 0);
  expect(sum((r) => r.kind === 'pushpop')).toBe(13513);
  expect(rows.filter((r) => r.kind === 'pushpop')).toHaveLength(9);
  expect(sum((r) => r.kind === 'api')).toBe(990);
  expect(rows.filter((r) => r.kind === 'api' && r.thread === 'pytest').map((r) => r.label).sort()).toEqual([
    'CUDA Driver API',
    'CUDA Runtime API',
  ]);
  expect(rows.find((r) => r.kind === 'gpu' && r.label === 'Default stream 7')).toMatchObject({
    path: ['CUDA', 'GPU 0 (NVIDIA H200)'],
    ranges: 24,
  });
  expect(rows.find((r) => r.label === 'NVTX (GPU projection)')?.thread).toBe('pytest');

  // Selecting a range shows it in the details panel.
  const range = await findRange(page, 'FusionExecutorCache::runFusionWithInputs');
  await page.evaluate((sel) => (window as unknown as HookedWindow).__nvtxview.store.getState().select({ kind: 'range', ...sel }), range);
  await idle(page);
  await expect(page.getByTestId('range-details').getByTestId('detail-name')).toHaveText('FusionExecutorCache::runFusionWithInputs');
});

test("the Capture tab says what the export is and what Nsight Systems recorded about the run, its warnings in the load report", async ({ page }) => {
  await openApp(page);
  await dropBinary(page, 'fuser-report1.sqlite', new Uint8Array(readFileSync(FIXTURE)));
  await waitForCaptures(page, 1);
  await page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name: 'Capture' }).click();
  const info = page.getByTestId('capture-info');
  await expect(info).toContainText('Nsight Systems SQLite export');
  await expect(info).toContainText('Ranges13,513');
  await expect(info).toContainText('API calls990');
  const recorded = info.getByTestId('capture-properties');
  await expect(recorded).toContainText('Nsight Systems');
  await expect(recorded).toContainText('0 error(s), 31 warning(s), 27 note(s)');
  await page.screenshot({ path: 'test-results/nsys-capture-tab.png' });
  await page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name: 'Load report' }).click();
  await expect(page.getByTestId('load-report')).toContainText('Nsight Systems warned while recording: No NVTX events collected. Does the process use NVTX? (11 processes, 11 times)');
});

test('an SQLite file that is not an nsys export gets a clear error', async ({ page }) => {
  await openApp(page);
  // A minimal empty SQLite database: a 100-byte header and one empty 512-byte page.
  const bytes = new Uint8Array(512);
  bytes.set(new TextEncoder().encode('SQLite format 3\u0000'));
  const header = new DataView(bytes.buffer);
  header.setUint16(16, 512); // page size
  bytes[18] = 1; // file format write version
  bytes[19] = 1; // read version
  bytes[21] = 64; // max embedded payload fraction
  bytes[22] = 32; // min embedded payload fraction
  bytes[23] = 32; // leaf payload fraction
  header.setUint32(24, 1); // change counter
  header.setUint32(28, 1); // page count
  header.setUint32(44, 4); // schema format
  header.setUint32(56, 1); // text encoding: UTF-8
  header.setUint32(92, 1); // version-valid-for
  header.setUint32(96, 3046000); // SQLite version number
  bytes[100] = 13; // page 1: an empty table leaf (sqlite_master)
  header.setUint16(105, 512); // cell content starts at the end of the page
  await dropBinary(page, 'empty.sqlite', bytes);
  const failure = page.getByTestId('load-failure');
  await expect(failure).toContainText('empty.sqlite');
  await expect(failure).toContainText('not an Nsight Systems export');
});
