/**
 * A capture made by the NVTX collector (collector/): built and recorded here with make and
 * nvtx-capture, dropped on the page, and shown with the thread names the program gave.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropBinary, openApp, waitForCaptures, type HookedWindow } from './support.ts';

const collector = resolve('collector');

interface Capture {
  bytes: Uint8Array;
  /** tid -> the name the program gave the thread. */
  names: Map<number, string>;
}

function recordCapture(): Capture {
  const made = spawnSync('make', ['-s', '-C', collector, 'tests'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make -C collector tests failed:\n${made.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), 'nvtxview-e2e-'));
  try {
    const path = join(dir, 'all_calls.nvtxc');
    const run = spawnSync(join(collector, 'build', 'nvtx-capture'), ['-q', '-o', path, '--', join(collector, 'build', 'tests', 'all_calls')], {
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`all_calls under nvtx-capture failed:\n${run.stderr}`);
    const names = new Map<number, string>();
    for (const line of run.stdout.split('\n')) {
      if (!line.trim()) continue;
      const event = JSON.parse(line) as { type: string; tid: number; name: string };
      if (event.type === 'thread') names.set(event.tid, event.name);
    }
    return { bytes: new Uint8Array(readFileSync(path)), names };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a collector capture opens with the threads named by nvtxNameOsThread', async ({ page }) => {
  const capture = recordCapture();
  const [mainTid] = [...capture.names].find(([, name]) => name === 'main thread')!;
  const [workerTid] = [...capture.names].find(([, name]) => name === 'ワーカー one')!;

  await openApp(page);
  await dropBinary(page, 'all_calls.nvtxc', capture.bytes);
  await waitForCaptures(page, 1);

  const loaded = await page.evaluate(() => {
    const model = (window as unknown as HookedWindow).__nvtxview.store.getState().captures[0].model as unknown as {
      capture: { format: string };
      issues: unknown[];
      threads: { tid: number; name: string }[];
    };
    return { format: model.capture.format, issues: model.issues.length, threads: model.threads };
  });
  expect(loaded.format).toBe('nvtxc');
  expect(loaded.issues).toBe(0);
  for (const [tid, name] of capture.names) expect(loaded.threads.find((t) => t.tid === tid)?.name).toBe(name);

  const tree = page.getByRole('tree', { name: 'Tracks' });
  await expect(tree.getByRole('treeitem', { name: new RegExp(`main thread \\(${mainTid}\\)`) }).first()).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: new RegExp(`ワーカー one \\(${workerTid}\\)`) }).first()).toBeVisible();
});
