/**
 * A real PyTorch 2.11 profiler trace (Kineto, Chrome JSON) in the page: GPU rows per stream in the
 * track tree, a kernel's details as fields, its launching call as partner (and the arrow between
 * them drawn on screen), and the GPU work statistics tab. Expectations come from the model decoded
 * in Node from the same file.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { rangeCudaStatistics } from '../src/analysis/cuda/statistics.ts';
import { loadModel, memorySource } from '../src/import/pipeline.ts';
import { enclosingRanges } from '../src/model/flows.ts';
import { formatDurationShort } from '../src/format/time.ts';
import { correlatedRanges, rangeName } from '../src/model/query.ts';
import type { Model } from '../src/model/types.ts';
import { busiestThread, threadRows } from '../src/ui/hierarchy/threadRows.ts';
import { generateKineto } from '../testkit/gen/kineto.ts';
import { idle, openApp, rangePoint, waitForCaptures, type HookedWindow } from './support.ts';

const FIXTURE = '../shared/fixtures/pytorch/cnn-h100-torch2.11.json';
const KERNEL = 'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>';

let model: Model;

test.beforeAll(async () => {
  model = await loadModel(memorySource('cnn-h100-torch2.11.json', new Uint8Array(readFileSync(FIXTURE))));
});

async function openFixture(page: Page): Promise<number> {
  await openApp(page);
  await page.getByTestId('open-input').setInputFiles({ name: 'cnn-h100-torch2.11.json', mimeType: 'application/json', buffer: readFileSync(FIXTURE) });
  await waitForCaptures(page, 1);
  return page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().captures[0].id);
}

test('a PyTorch trace shows GPU rows, kernel fields and the launch → kernel link', async ({ page }) => {
  const capture = await openFixture(page);
  // GPU rows per stream and the threads' API rows in the track tree.
  for (const label of ['GPU 0 (NVIDIA H100 80GB HBM3)', 'Stream 7', 'Stream 13', 'CUDA Runtime API']) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }

  let kernel = -1;
  for (let r = 0; r < model.ranges.startNs.length && kernel < 0; r++) if (rangeName(model, r).startsWith(KERNEL)) kernel = r;
  const [call] = correlatedRanges(model, kernel);
  expect(rangeName(model, call)).toBe('cudaLaunchKernel');

  await page.evaluate(
    ([c, index]) => (window as unknown as { __nvtxview: { store: { getState(): { revealEvent(x: unknown): void } } } }).__nvtxview.store.getState().revealEvent({ kind: 'range', capture: c, index }),
    [capture, kernel] as const,
  );
  await idle(page);
  const details = page.getByTestId('range-details');
  // The short kernel name is shown, the full demangled one in its title.
  await expect(details.getByTestId('detail-name')).toContainText('vectorized_elementwise_kernel');
  await expect(details.getByTestId('detail-name')).toHaveAttribute('title', /FillFunctor/);
  await expect(details.getByTestId('gpu-field-Grid')).toHaveText('(1, 1, 1)');
  await expect(details.getByTestId('gpu-field-Block')).toHaveText('(128, 1, 1)');
  await expect(details.getByTestId('gpu-field-Registers per thread')).toHaveText('16');
  await expect(details.getByTestId('gpu-field-Stream')).toHaveText('Stream 7');
  await expect(details.getByTestId('payload-fields')).toHaveCount(0);
  // The launching call is the partner; both ends are on screen, so the arrow joins them.
  const partners = page.getByTestId('cuda-partners');
  await expect(partners).toContainText('cudaLaunchKernel');
  // ... and the CPU op stack above the call.
  const stack = enclosingRanges(model, model.ranges.thread[call], model.ranges.startNs[call]).map((r) => rangeName(model, r));
  expect(stack.length).toBeGreaterThan(0);
  await expect(page.getByTestId('cuda-call-stack')).toContainText(stack[stack.length - 1]);
  await partners.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/pytorch-kernel-details.png' });
  const ends = [await rangePoint(page, capture, call), await rangePoint(page, capture, kernel)];
  expect(ends[1], 'the kernel is drawn').not.toBeNull();
  await page.screenshot({ path: 'test-results/pytorch-kernel-selected.png' });

  // The partner link selects the call.
  await partners.getByRole('button').first().click();
  await expect.poll(() => page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().selection?.index)).toBe(call);
  await expect(page.getByTestId('payload-fields')).toContainText('correlation');
});

test('a record_function range shows its CUDA statistics and GPU projection; GPU work has its own statistics tab', async ({ page }) => {
  const capture = await openFixture(page);
  let forward = -1;
  for (let r = 0; r < model.ranges.startNs.length && forward < 0; r++) {
    if (rangeName(model, r) === 'forward' && model.tracks.find((t) => t.rangeBegin <= r && r < t.rangeEnd)?.kind === 'pushpop') forward = r;
  }
  const expected = rangeCudaStatistics(model, forward)!;
  expect(expected.projection).toBeDefined();
  await page.evaluate(
    ([c, index]) => (window as unknown as HookedWindow).__nvtxview.store.getState().select({ kind: 'range', capture: c, index }),
    [capture, forward] as const,
  );
  await idle(page);
  const stats = page.getByTestId('cuda-stats');
  await expect(stats).toContainText('CUDA Runtime API');
  await expect(stats).toContainText('GPU 0 (NVIDIA H100 80GB HBM3)');
  const work = stats.locator('tr[data-metric="gpu:All GPUs:work"] td[data-col="total"]');
  expect(Number(await work.getAttribute('data-value'))).toBe(expected.gpu.workCount.total);
  const projection = page.getByTestId('cuda-projection');
  expect(Number(await projection.locator('dd[data-value]').getAttribute('data-value'))).toBe(expected.projection!.durationNs);

  // Kernels in their own table, not among the ranges.
  await page.getByRole('tab', { name: 'GPU work' }).click();
  const pane = page.locator('#st-pane-gpu');
  await expect(pane).toContainText('Memcpy HtoD (Pinned -> Device)');
  await expect(pane).not.toContainText('aten::');
  // Its name column says what it lists, and so does the CUDA API table's.
  await expect(pane.getByRole('columnheader').first()).toHaveText(/^GPU work/);
  await page.screenshot({ path: 'test-results/pytorch-gpu-tab.png' });
  await page.getByRole('tab', { name: 'CUDA API' }).click();
  await expect(page.locator('#st-pane-api').getByRole('columnheader').first()).toHaveText(/^API call/);
});

test('ProfilerStep#N compare in one row grouped with numbers folded; the slowest step is one click away', async ({ page }) => {
  const { json, counts } = generateKineto({ steps: 8, opsPerStep: 4, seed: 5 });
  await openApp(page);
  await page.getByTestId('open-input').setInputFiles({ name: 'steps.pt.trace.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await waitForCaptures(page, 1);
  const panel = page.getByTestId('stats-panel');
  await panel.getByTestId('group-by').selectOption('family');
  const row = panel.getByTestId('stats-row').filter({ hasText: 'ProfilerStep#*' });
  await row.click();
  const detail = page.getByTestId('range-detail');
  await expect(detail.getByTestId('summary-Instances')).toHaveText('8');
  await detail.getByTestId('jump-slowest').click();
  const slowest = counts.stepNs.indexOf(Math.max(...counts.stepNs));
  await expect(page.getByTestId('range-details').getByTestId('detail-name')).toHaveText(`ProfilerStep#${slowest}`);
  await page.screenshot({ path: 'test-results/pytorch-steps.png' });
});

test('ProfilerStep#* duration over time: one point per step, hover reads a step out, a click selects it', async ({ page }) => {
  const { json, counts } = generateKineto({ steps: 8, opsPerStep: 4, seed: 5 });
  await openApp(page);
  await page.getByTestId('open-input').setInputFiles({ name: 'steps.pt.trace.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await waitForCaptures(page, 1);
  const panel = page.getByTestId('stats-panel');
  await panel.getByTestId('group-by').selectOption('family');
  await panel.getByTestId('stats-row').filter({ hasText: 'ProfilerStep#*' }).click();
  const detail = page.getByTestId('range-detail');
  const plot = detail.getByTestId('duration-over-time');
  await expect(plot).toBeVisible();
  await expect(plot).toHaveAttribute('data-points', '8');
  const box = (await plot.boundingBox())!;
  // Steps run one after another: the first starts at the left edge, the last at the right one.
  const last = counts.stepNs.length - 1;
  await plot.hover({ position: { x: box.width - 1, y: box.height / 2 } });
  const hover = detail.getByTestId('duration-over-time-hover');
  await expect(hover).toContainText(`ProfilerStep#${last}`);
  await expect(hover).toContainText(formatDurationShort(counts.stepNs[last]));
  await detail.locator('.st-over-time').screenshot({ path: 'test-results/pytorch-steps-over-time.png' });
  await plot.click({ position: { x: 1, y: box.height / 2 } });
  const selected = page.getByTestId('range-details').getByTestId('detail-name');
  await expect(selected).toHaveText('ProfilerStep#0');
  await plot.click({ position: { x: box.width - 1, y: box.height / 2 } });
  await expect(selected).toHaveText(`ProfilerStep#${last}`);
  await page.screenshot({ path: 'test-results/pytorch-steps-over-time-page.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await plot.hover({ position: { x: 1, y: box.height / 2 } });
  await expect(hover).toContainText('ProfilerStep#0');
  await detail.locator('.st-over-time').screenshot({ path: 'test-results/pytorch-steps-over-time-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
});

test('the hierarchy opens on the thread with the most push/pop ranges, not on the profiler span listed first', async ({ page }) => {
  await openFixture(page);
  const rows = threadRows([{ id: 0, model }], () => false);
  const busiest = busiestThread(rows)!;
  // The list starts with the profiler's own span (pid -2): one range.
  expect(rows[0].ranges).toBe(1);
  expect(busiest.ranges).toBeGreaterThan(100);
  const tab = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name: 'Hierarchy' });
  await tab.click();
  const thread = page.getByTestId('hierarchy-panel').getByRole('combobox', { name: 'Thread' });
  await expect(thread.locator('option:checked')).toHaveText(busiest.label);
  await expect(page.getByTestId('hierarchy-panel')).toContainText(`${busiest.ranges.toLocaleString('en-US')} ranges`);
});

test('the Capture tab shows the profiler\'s facts about the run; the memory totals are counter rows', async ({ page }) => {
  await openFixture(page);
  await page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name: 'Capture' }).click();
  const recorded = page.getByTestId('capture-properties');
  await expect(recorded).toContainText('cuda_driver_version');
  await expect(recorded).toContainText('13000');
  await expect(recorded).toContainText('NVIDIA H100 80GB HBM3');
  await page.getByRole('tab', { name: 'Counters' }).click();
  await expect(page.locator('#st-pane-counters')).toContainText('CUDA 0 allocated');
  // In MiB, as memory tools show it: the peak, 157,358,080 bytes, is 150.1 MiB.
  await expect(page.locator('#st-pane-counters')).toContainText('MiB · 312 samples');
  await expect(page.locator('#st-pane-counters')).toContainText('150.1');
  await page.screenshot({ path: 'test-results/pytorch-capture-tab.png' });
});
