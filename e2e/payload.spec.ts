/**
 * Extended payloads and counters in the page: captures recorded here by the collector from the C
 * test programs (make + nvtx-capture), dropped on the page; a payload range selected on the canvas
 * shows its decoded fields in the panel, a counter row shows its value on hover (and "no value"
 * where the program marked a sample unavailable, and a delta counter its change and running total).
 * Expected values come from what the programs printed; where to hover comes from the model.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { idle, openApp, rangePoint, waitForCaptures, type HookedWindow } from './support.ts';

const collector = resolve('collector');

interface Recorded {
  bytes: Uint8Array;
  lines: Record<string, unknown>[];
}

function record(program: string): Recorded {
  const made = spawnSync('make', ['-s', '-C', collector, 'tests'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make -C collector tests failed:\n${made.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), 'nvtxview-e2e-payload-'));
  try {
    const path = join(dir, `${program}.nvtxc`);
    const run = spawnSync(join(collector, 'build', 'nvtx-capture'), ['-q', '-o', path, '--', join(collector, 'build', 'tests', program)], {
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`${program} under nvtx-capture failed:\n${run.stderr}`);
    const lines = run.stdout
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { bytes: new Uint8Array(readFileSync(path)), lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function dropBinary(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.evaluate(
    ([fileName, base64]) => {
      const raw = atob(base64);
      const data = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) data[i] = raw.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], fileName, { type: 'application/octet-stream' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    [name, Buffer.from(bytes).toString('base64')] as const,
  );
}

interface CounterModel {
  offsetNs: number;
  model: { durationNs: number; tracks: { label: string; counterBegin: number; counterEnd: number }[]; counters: { timeNs: Float64Array; value: Float64Array } };
}
type CounterState = { viewStartNs: number; viewEndNs: number; captures: CounterModel[]; setView(a: number, b: number): void };

/** Times (ns from the capture start) and values (null: none) of counter row `label` of the first capture. */
async function counterSamples(page: Page, label: string): Promise<{ times: number[]; values: (number | null)[] }> {
  return page.evaluate((name) => {
    const c = ((window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as CounterState).captures[0];
    const track = c.model.tracks.find((t) => t.label === name)!;
    const times = Array.from(c.model.counters.timeNs.subarray(track.counterBegin, track.counterEnd));
    const values = Array.from(c.model.counters.value.subarray(track.counterBegin, track.counterEnd), (v) => (Number.isNaN(v) ? null : v));
    return { times, values };
  }, label);
}

/** Zooms so that [fromNs, toNs] of the first capture fills the middle half of the view and hovers its middle on row `label`. */
async function hoverCounter(page: Page, label: string, fromNs: number, toNs: number): Promise<void> {
  expect(toNs).toBeGreaterThan(fromNs);
  await page.evaluate(
    ([a, b]) => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as CounterState;
      const offset = s.captures[0].offsetNs;
      const width = b - a;
      s.setView(offset + a - width / 2, offset + b + width / 2);
    },
    [fromNs, toNs] as const,
  );
  await idle(page);
  const row = page.getByRole('tree', { name: 'Tracks' }).getByRole('treeitem').filter({ has: page.locator('.tl-label', { hasText: new RegExp(`^${label}$`) }) }).first();
  await row.scrollIntoViewIfNeeded();
  await expect(row).toBeVisible();
  const rowBox = (await row.boundingBox())!;
  const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  const x = await page.evaluate(
    ([a, b, left, width]) => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as CounterState;
      const t = s.captures[0].offsetNs + (a + b) / 2;
      return left + ((t - s.viewStartNs) / (s.viewEndNs - s.viewStartNs)) * width;
    },
    [fromNs, toNs, canvas.x, canvas.width] as const,
  );
  // Off the row first, so the tooltip is rebuilt for the new position.
  await page.mouse.move(canvas.x + 1, canvas.y + 1);
  await page.mouse.move(x, rowBox.y + rowBox.height / 2);
}

type ModelLike = { strings: string[]; styles: { name: number[] }; ranges: { style: number[] } };

test('a payload range shows its decoded fields in the panel; a counter row shows its value on hover', async ({ page }) => {
  const counters = record('counters_kinds');
  const payloads = record('payload_schemas');
  await openApp(page);
  await dropBinary(page, 'counters.nvtxc', counters.bytes);
  await waitForCaptures(page, 1);
  await dropBinary(page, 'payloads.nvtxc', payloads.bytes);
  await waitForCaptures(page, 2);

  // The push/pop range renamed by its pop payload, drawn and clicked.
  const target = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    const capture = s.captures[1];
    const m = capture.model as unknown as ModelLike;
    const index = Array.from(m.ranges.style).findIndex((st) => m.strings[m.styles.name[st]] === 'renamed at pop');
    return { capture: capture.id, index };
  });
  expect(target.index).toBeGreaterThanOrEqual(0);
  await page.evaluate((t) => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as { revealEvent(x: unknown): void; select(x: unknown): void };
    s.revealEvent({ kind: 'range', ...t });
    s.select(null);
  }, target);
  await idle(page);
  await expect
    .poll(() => rangePoint(page, target.capture, target.index))
    .not.toBeNull();
  const point = await rangePoint(page, target.capture, target.index);
  await page.mouse.click(point!.x, point!.y);

  const details = page.getByTestId('range-details');
  // Shown with its domain: "payloads:renamed at pop".
  await expect(details.getByTestId('detail-name')).toHaveText(/renamed at pop$/);
  const tree = details.getByTestId('payload-tree');
  const value = (path: string) => tree.locator(`[data-testid="payload-field"][data-path="${path}"] [data-testid="payload-value"]`);
  const line = payloads.lines.find((l) => l.type === 'payload' && l.name === 'renamed at pop')!;
  const nested = (line.payloads as Record<string, unknown>[])[1] as { tag: number; one: { x: number; y: number }; name: string; mode: string };
  await expect(value('tag')).toHaveText(String(nested.tag));
  await expect(value('one.x')).toHaveText(String(nested.one.x));
  await expect(value('one.y')).toHaveText(String(nested.one.y));
  await expect(value('name')).toHaveText(nested.name);
  await expect(value('mode')).toHaveText(`${nested.mode} (7)`);
  // The hidden entry appears only on request.
  await expect(tree.locator('[data-path="secret"]')).toHaveCount(0);
  await tree.getByRole('checkbox').check();
  await expect(tree.locator('[data-path="secret"]').first()).toBeVisible();

  // Counter rows of the first capture, hovered where the model says a sample's value holds: the
  // view is zoomed so that this time fills the middle half of the canvas, so the pointer cannot land
  // on a neighbouring sample whatever the pixel rounding.
  const counter = counters.lines.find((l) => l.type === 'counter' && l.row === 'Counters > queue depth')!;
  const printed = counter.values as (number | string)[];
  const tooltip = page.getByRole('tooltip');
  const samples = await counterSamples(page, 'queue depth');
  expect(samples.values.length).toBe(printed.length);
  // A sample with a value (untilNext: it holds until the next sample).
  const held = samples.values.findIndex((v, k) => v !== null && k > 0 && samples.values[k - 1] === null);
  expect(held).toBeGreaterThan(0);
  await hoverCounter(page, 'queue depth', samples.times[held], samples.times[held + 1]);
  await expect(tooltip).toContainText('queue depth');
  await expect(tooltip).toContainText(`${printed[held]} items`);
  await expect(tooltip).toContainText('Since');
  // The sample the program marked unavailable: no value until the next sample.
  const gap = held - 1;
  expect(printed[gap]).toBe('NaN');
  await hoverCounter(page, 'queue depth', samples.times[gap], samples.times[gap + 1]);
  await expect(tooltip).toContainText('no value (unavailable)');

  // A counter of changes: a change holds back to the previous sample; its running total is shown.
  const sent = counters.lines.find((l) => l.type === 'counter' && l.row === 'Counters > bytes sent')!;
  const total = counters.lines.find((l) => l.type === 'counter' && l.row === 'Counters > bytes sent (running total)')!;
  const sentSamples = await counterSamples(page, 'bytes sent');
  await hoverCounter(page, 'bytes sent', sentSamples.times[0], sentSamples.times[1]);
  await expect(tooltip).toContainText(`+${(sent.values as number[])[1]} bytes`);
  await expect(tooltip).toContainText(`Running total${(total.values as number[])[1]} bytes`);

  // The statistics panel's Counters tab says what each row's figures are.
  const panel = page.getByTestId('stats-panel');
  await panel.getByRole('tab', { name: 'Counters' }).click();
  const table = page.getByTestId('counter-table');
  const row = (label: string) => table.getByRole('row').filter({ has: page.locator('.st-name').getByText(label, { exact: true }) });
  await expect(row('bytes sent')).toContainText('changes');
  await expect(row('bytes sent (running total)')).toContainText('running total of bytes sent');
  await page.screenshot({ path: 'test-results/stats-counters.png' });
  // Further down the (virtualized) list.
  await table.locator('.st-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(row('queue depth')).toContainText('1 unavailable');
  await expect(row('queue depth')).toContainText('no value');
});
