/**
 * CUDA in the page with the real Nsight Systems export: the statistics of a selected NVTX range in
 * the side panel (compared with the statistics module run on the same file in Node), the GPU
 * partner of an API call in the hover tooltip and the panel, and the Chrome JSON export loaded back
 * with the same number of events.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { rangeCudaStatistics, type RangeCudaStatistics } from '../src/analysis/cuda/statistics.ts';
import { loadModel, memorySource } from '../src/import/pipeline.ts';
import { correlatedRanges, rangeName } from '../src/model/query.ts';
import type { Model } from '../src/model/types.ts';
import { findRange, idle, openApp, rangePoint, waitForCaptures } from './support.ts';
import { NSYS_FIXTURE } from '../testkit/fixtures.ts';

const FIXTURE = NSYS_FIXTURE;
const RANGE = 'FusionExecutorCache::runFusionWithInputs';

let model: Model;

test.beforeAll(async () => {
  model = await loadModel(memorySource('fuser-report1.sqlite', new Uint8Array(readFileSync(FIXTURE))));
});

/** The page's store as these tests read it (inside `page.evaluate`, so spelled out there). */
type StoreWindow = Window & {
  __nvtxview: { store: { getState(): { captures: { id: number; model: Model }[]; span: unknown; selection: { index: number } | null } } };
};

async function openFixture(page: Page): Promise<void> {
  await openApp(page);
  await page.getByTestId('open-input').setInputFiles({ name: 'fuser-report1.sqlite', mimeType: 'application/vnd.sqlite3', buffer: readFileSync(FIXTURE) });
  await waitForCaptures(page, 1);
}

async function select(page: Page, target: { capture: number; index: number }, reveal = false): Promise<void> {
  await page.evaluate(
    ([t, show]) => {
      const s = (window as unknown as { __nvtxview: { store: { getState(): Record<string, (x: unknown) => void> } } }).__nvtxview.store.getState();
      if (show) s.revealEvent({ kind: 'range', ...t });
      else s.select({ kind: 'range', ...t });
    },
    [target, reveal] as const,
  );
  await idle(page);
}

/** The raw value of one cell of the statistics table. */
async function cell(page: Page, metric: string, col: 'total' | 'totalPct' | 'self' | 'selfPct'): Promise<number> {
  const td = page.getByTestId('cuda-stats').locator(`tr[data-metric="${metric}"] td[data-col="${col}"]`);
  return Number(await td.getAttribute('data-value'));
}

test('a selected NVTX range shows its API and GPU statistics and its GPU projection', async ({ page }) => {
  await openFixture(page);
  const range = await findRange(page, RANGE);
  const expected = rangeCudaStatistics(model, range.index) as RangeCudaStatistics;
  // The page's model is the same file decoded the same way: the index names the same range.
  expect(rangeName(model, range.index)).toBe(RANGE);
  expect(expected.api.length).toBeGreaterThan(0);
  expect(expected.projection).toBeDefined();

  await select(page, range);
  const panel = page.getByTestId('cuda-stats');
  await expect(panel).toBeVisible();
  for (const d of expected.api) {
    await expect(panel).toContainText(d.domain);
    for (const col of ['total', 'totalPct', 'self', 'selfPct'] as const) {
      expect(await cell(page, `api:${d.domain}:calls`, col), `${d.domain} calls ${col}`).toBeCloseTo(d.callCount[col], 9);
      expect(await cell(page, `api:${d.domain}:duration`, col), `${d.domain} duration ${col}`).toBeCloseTo(d.callDurationNs[col], 9);
    }
  }
  const g = expected.gpu;
  for (const col of ['total', 'totalPct', 'self', 'selfPct'] as const) {
    expect(await cell(page, 'gpu:All GPUs:work', col)).toBeCloseTo(g.workCount[col], 9);
    expect(await cell(page, 'gpu:All GPUs:activity', col)).toBeCloseTo(g.activityNs[col], 9);
    expect(await cell(page, 'gpu:All GPUs:overlap', col)).toBeCloseTo(g.overlapNs[col], 9);
  }
  // What a reader sees: the call count and the device.
  const runtimeCalls = expected.api.find((d) => d.domain === 'CUDA Runtime API')!.callCount.total;
  await expect(panel.locator('tr[data-metric="api:CUDA Runtime API:calls"] td[data-col="total"]')).toHaveText(String(runtimeCalls));
  await expect(panel).toContainText('GPU 0 (NVIDIA H200)');
  const projection = page.getByTestId('cuda-projection');
  expect(Number(await projection.locator('dd[data-value]').getAttribute('data-value'))).toBe(expected.projection!.durationNs);
  await expect(projection).toContainText(`${expected.projection!.workCount} GPU operations by ${expected.projection!.callCount} API calls`);

  // "select span" makes the projection the selected time span.
  await projection.getByRole('button', { name: 'select span' }).click();
  const span = await page.evaluate(() => (window as unknown as StoreWindow).__nvtxview.store.getState().span);
  expect(span).toEqual({ startNs: expected.projection!.startNs, endNs: expected.projection!.endNs });
});

test('an API call shows its GPU work in the tooltip and the panel', async ({ page }) => {
  await openFixture(page);
  // The first API call that launched GPU work.
  let call = -1;
  for (const t of model.tracks) {
    if (t.kind !== 'api') continue;
    for (let r = t.rangeBegin; r < t.rangeEnd && call < 0; r++) if (correlatedRanges(model, r).length > 0) call = r;
    if (call >= 0) break;
  }
  expect(call).toBeGreaterThanOrEqual(0);
  const partner = correlatedRanges(model, call)[0];
  const captureId = await page.evaluate(() => (window as unknown as StoreWindow).__nvtxview.store.getState().captures[0].id);

  await select(page, { capture: captureId, index: call }, true);
  const partners = page.getByTestId('cuda-partners');
  await expect(partners).toContainText(rangeName(model, partner));

  const point = await rangePoint(page, captureId, call);
  expect(point, 'the revealed API call is drawn').not.toBeNull();
  await page.mouse.move(point!.x, point!.y);
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toContainText(rangeName(model, call));
  await expect(tooltip).toContainText('GPU work');
  await expect(tooltip).toContainText(rangeName(model, partner));

  // The partner link selects the GPU operation.
  await partners.getByRole('button').first().click();
  await expect.poll(() => page.evaluate(() => ((window as unknown as StoreWindow).__nvtxview.store.getState().selection as { index: number } | null)?.index)).toBe(partner);
});

test('Export → Chrome JSON downloads a trace that loads back with the same events', async ({ page }) => {
  await openFixture(page);
  await page.getByTestId('export-menu').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('export-chrome-json').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('fuser-report1.trace.json');
  const bytes = readFileSync(await file.path());
  expect(JSON.parse(bytes.toString('utf8')).traceEvents.length).toBeGreaterThan(model.ranges.startNs.length);

  await page.getByTestId('open-input').setInputFiles({ name: 'fuser-report1.trace.json', mimeType: 'application/json', buffer: bytes });
  await waitForCaptures(page, 2);
  const counts = await page.evaluate(() =>
    (window as unknown as StoreWindow).__nvtxview.store
      .getState()
      .captures.map((c) => ({
        format: c.model.capture.format,
        ranges: c.model.ranges.startNs.length,
        marks: c.model.marks.timeNs.length,
        samples: c.model.counters.timeNs.length,
        issues: c.model.issues.length,
      })),
  );
  expect(counts[1].format).not.toBe(counts[0].format);
  expect(counts[1]).toMatchObject({ ranges: counts[0].ranges, marks: counts[0].marks, samples: counts[0].samples, issues: 0 });
  expect(counts[0].ranges).toBe(model.ranges.startNs.length);
});
