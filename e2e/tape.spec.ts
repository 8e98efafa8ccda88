/**
 * Big files load on two workers (src/worker/tapeRoles.ts): one decodes into a builder-call tape,
 * the other builds the model from it; a Chrome trace may instead be parsed on one and built on the
 * other from the parsed records (`?split=always`, src/import/chromeSplit.ts). The page must get the
 * model the one-worker load gives (`?tape=never`), and say which way it went
 * (`__nvtxview.loadPaths`). `?tape=always`: this machine has fewer cores than the tape asks for
 * unasked (TAPE_MIN_CORES). Captures are generated (native ~40 MB, Chrome JSON ~36 MB) and deleted.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { gzipSync } from 'fflate';
import { generateFile } from '../testkit/gen/main.ts';
import { TAPE_MIN_BYTES } from '../src/worker/load.client.ts';
import { openApp, waitForCaptures } from './support.ts';

type TapeWindow = Window & {
  __nvtxview: {
    loadPaths: { name: string; path: string }[];
    store: {
      getState(): {
        captures: { partial?: boolean; model: { ranges: { startNs: Float64Array }; marks: { timeNs: Float64Array }; issues: { message: string }[]; strings: string[] } }[];
        failed: unknown[];
      };
    };
  };
};

let dir = '';
const files: Record<string, string> = {};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), 'nvtxview-tape-'));
  files.native = join(dir, 'big.nvtxc');
  await generateFile(files.native, 'nvtxc', { events: 2_500_000, seed: 4 });
  files.chrome = join(dir, 'big.json');
  await generateFile(files.chrome, 'chrome-json', { events: 300_000, seed: 4 });
  for (const f of Object.values(files)) expect(statSync(f).size).toBeGreaterThan(TAPE_MIN_BYTES);
  files.chromeGz = join(dir, 'big.json.gz');
  writeFileSync(files.chromeGz, gzipSync(readFileSync(files.chrome), { level: 1 }));
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Loads `path` into a fresh page with `query`; returns the load path and a summary of the model. */
async function load(page: Page, path: string, query: string) {
  await openApp(page, query);
  await page.getByTestId('open-input').setInputFiles(path);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as TapeWindow).__nvtxview.store.getState().captures.some((c) => !c.partial)), { timeout: 120_000 })
    .toBe(true);
  await waitForCaptures(page, 1, 10_000);
  return page.evaluate(() => {
    const w = window as unknown as TapeWindow;
    const s = w.__nvtxview.store.getState();
    const m = s.captures[0].model;
    let t = 0;
    for (let i = 0; i < m.ranges.startNs.length; i += 997) t += m.ranges.startNs[i];
    return {
      paths: w.__nvtxview.loadPaths.map((p) => p.path),
      failed: s.failed.length,
      ranges: m.ranges.startNs.length,
      marks: m.marks.timeNs.length,
      strings: m.strings.length,
      issues: m.issues.map((i) => i.message),
      sampledStarts: t,
    };
  });
}

for (const kind of ['native', 'chrome']) {
  test(`a big ${kind} file loads on two workers into the model one worker makes`, async ({ page }) => {
    test.setTimeout(300_000);
    const two = await load(page, files[kind], '?tape=always');
    expect(two.paths).toEqual(['tape']);
    expect(two.failed).toBe(0);
    expect(two.ranges).toBeGreaterThan(100_000);
    const one = await load(page, files[kind], '?tape=never');
    expect(one.paths).toEqual(['single']);
    expect(two).toEqual({ ...one, paths: ['tape'] });
  });
}

test('a big Chrome trace parsed on one worker and built on another gives the model one worker makes', async ({ page }) => {
  test.setTimeout(300_000);
  const two = await load(page, files.chrome, '?split=always');
  expect(two.paths).toEqual(['split']);
  expect(two.failed).toBe(0);
  expect(two.ranges).toBeGreaterThan(100_000);
  const one = await load(page, files.chrome, '?tape=never');
  expect(one.paths).toEqual(['single']);
  expect(two).toEqual({ ...one, paths: ['split'] });
  // Gzip: the parse side decompresses.
  const gzTwo = await load(page, files.chromeGz, '?split=always');
  expect(gzTwo.paths).toEqual(['split']);
  const gzOne = await load(page, files.chromeGz, '?tape=never');
  expect(gzTwo).toEqual({ ...gzOne, paths: ['split'] });
  expect(gzOne.ranges).toBe(one.ranges);
  // Another format asked to split goes to one worker.
  const native = await load(page, files.native, '?split=always');
  expect(native.paths).toEqual(['single']);
  expect(native.failed).toBe(0);
});
