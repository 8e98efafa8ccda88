/**
 * Extended payloads and counters in the page: captures recorded here by the collector from the C
 * test programs (make + nvtx-capture), dropped on the page; a payload range selected on the canvas
 * shows its decoded fields in the panel, a counter row shows its value on hover. Expected values
 * come from what the programs printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';

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
    .poll(() => page.evaluate((t) => (window as unknown as HookedWindow).__nvtxview.timeline!.hitTestRange(t.capture, t.index), target))
    .not.toBeNull();
  const point = await page.evaluate((t) => (window as unknown as HookedWindow).__nvtxview.timeline!.hitTestRange(t.capture, t.index), target);
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

  // The counter row "queue depth" of the first capture: its last value holds to the end.
  await page.evaluate(() => ((window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as { zoomToFit(): void }).zoomToFit());
  await idle(page);
  const row = page.getByRole('tree', { name: 'Tracks' }).getByRole('treeitem').filter({ hasText: 'queue depth' }).first();
  await expect(row).toBeVisible();
  const rowBox = (await row.boundingBox())!;
  const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  const counter = counters.lines.find((l) => l.type === 'counter' && l.row === 'Counters > queue depth')!;
  const values = counter.values as number[];
  // Between the counter's last sample and the end of its capture, zoomed so that they are apart.
  await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
      setView(a: number, b: number): void;
      captures: { offsetNs: number; model: { durationNs: number; tracks: { label: string; counterEnd: number }[]; counters: { timeNs: Float64Array } } }[];
    };
    const c = s.captures[0];
    const track = c.model.tracks.find((t) => t.label === 'queue depth')!;
    const last = c.offsetNs + c.model.counters.timeNs[track.counterEnd - 1];
    const end = c.offsetNs + c.model.durationNs;
    s.setView(last - (end - last), end);
  });
  await idle(page);
  const x = await page.evaluate((box) => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
      viewStartNs: number;
      viewEndNs: number;
      captures: {
        offsetNs: number;
        model: { durationNs: number; tracks: { label: string; counterEnd: number }[]; counters: { timeNs: Float64Array } };
      }[];
    };
    const c = s.captures[0];
    const track = c.model.tracks.find((t) => t.label === 'queue depth')!;
    const last = c.model.counters.timeNs[track.counterEnd - 1];
    const t = c.offsetNs + (last + c.model.durationNs) / 2;
    return box.x + ((t - s.viewStartNs) / (s.viewEndNs - s.viewStartNs)) * box.width;
  }, canvas);
  await page.mouse.move(x, rowBox.y + rowBox.height / 2);
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toContainText('queue depth');
  await expect(tooltip).toContainText(`${values[values.length - 1]} items`);
  await expect(tooltip).toContainText('Since');
});
