/**
 * Comparing two captures in the page: two generated NVTXT captures with known changes (one range
 * 20% slower, one added, one removed, one unchanged with 30% spread), the Compare tab, a row's
 * overlaid histograms (legend, both counts per bin, a band) and slowest instances, and the comparison
 * restored from a link. Screenshots in test-results/compare.png, compare-histogram.png, compare-histogram-dark.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { capturePairNvtxt } from '../testkit/gen/comparePair.ts';
import { dropFiles, idle, interceptFileChoosers, longestFrameGap, openApp, startFrameGapMeter, waitForCaptures, type HookedWindow } from './support.ts';

const side = (count: number, medianNs: number, sigma: number) => ({ count, medianNs, sigma });
const pair = capturePairNvtxt({
  seed: 4,
  ranges: [
    { name: 'step', base: side(200, 100_000, 0.05), candidate: side(200, 120_000, 0.05) },
    { name: 'warmup', base: side(0, 1, 0), candidate: side(30, 40_000, 0.1) },
    { name: 'legacy copy', base: side(40, 30_000, 0.1), candidate: side(0, 1, 0) },
    { name: 'noisy io', base: side(400, 60_000, 0.3), candidate: side(400, 60_000, 0.3) },
    { name: 'tiny', base: side(300, 2_000, 0.1), candidate: side(300, 2_000, 0.1) },
  ],
});
const FILES = [
  { name: 'before.nvtxt', text: pair.base },
  { name: 'after.nvtxt', text: pair.candidate },
];

async function loadPair(page: Page): Promise<void> {
  await dropFiles(page, FILES);
  await waitForCaptures(page, 2);
  await idle(page);
}

const row = (page: Page, name: string) => page.locator(`[data-testid="compare-row"][data-name="${name}"]`);

test('compares two captures: flags the slower range, not the noisy one; histograms, slowest instance, link', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openApp(page);
  await loadPair(page);
  await page.locator('#tab-compare').click();
  const panel = page.getByTestId('compare-panel');
  await expect(panel).toBeVisible();
  await page.getByTestId('compare-base').selectOption({ label: 'before.nvtxt' });
  await page.getByTestId('compare-candidate').selectOption({ label: 'after.nvtxt' });

  await expect(page.getByTestId('compare-row')).toHaveCount(5);
  // Sorted by change of total: the slowdown first, the removed range last.
  await expect(page.getByTestId('compare-row').first()).toHaveAttribute('data-name', 'step');
  await expect(page.getByTestId('compare-row').last()).toHaveAttribute('data-name', 'legacy copy');
  await expect(row(page, 'step')).toHaveAttribute('data-status', 'slower');
  await expect(row(page, 'warmup')).toHaveAttribute('data-status', 'added');
  await expect(row(page, 'legacy copy')).toHaveAttribute('data-status', 'removed');
  await expect(row(page, 'noisy io')).toHaveAttribute('data-status', 'within-noise');
  await expect(row(page, 'noisy io')).toContainText('within noise');
  await expect(page.getByTestId('compare-summary')).toHaveText('1 slower, 1 added, 1 removed, 2 within noise');
  await expect(row(page, 'step').locator('.cmp-status')).toHaveAttribute('title', /Mann–Whitney U/);

  // Sorting: by name ascending first, then descending; the change of total again restores the default.
  const table = page.getByTestId('compare-table');
  const names = () => page.getByTestId('compare-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));
  await expect(table.getByRole('columnheader', { name: /^Δ Total/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(table.getByRole('columnheader', { name: 'Count A' })).not.toHaveAttribute('aria-sort', /./);
  await table.getByRole('columnheader', { name: /^Name/ }).click();
  await expect(table.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'ascending');
  expect(await names()).toEqual(['legacy copy', 'noisy io', 'step', 'tiny', 'warmup']);
  await table.getByRole('columnheader', { name: /^Name/ }).click();
  expect(await names()).toEqual(['warmup', 'tiny', 'step', 'noisy io', 'legacy copy']);
  await table.getByRole('columnheader', { name: 'Count A' }).click();
  expect(await names()).toEqual(['warmup', 'tiny', 'step', 'noisy io', 'legacy copy']);
  await table.getByRole('columnheader', { name: /^Δ Total/ }).click();
  await expect(page.getByTestId('compare-row').first()).toHaveAttribute('data-name', 'step');

  // The keyboard opens a row (Enter) and closes it again (Space).
  await row(page, 'tiny').focus();
  await page.keyboard.press('Enter');
  await expect(row(page, 'tiny')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('compare-detail')).toContainText('tiny');
  await page.keyboard.press(' ');
  await expect(row(page, 'tiny')).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByTestId('compare-detail')).toHaveCount(0);

  await row(page, 'step').click();
  const detail = page.getByTestId('compare-detail');
  await expect(detail).toBeVisible();
  // Both distributions overlaid on one canvas (one axis, the same bins), a legend naming both captures.
  const histogram = detail.getByTestId('histogram');
  await expect(histogram).toHaveCount(1);
  await expect(histogram).toHaveAttribute('data-series', '2');
  await expect(histogram).toHaveAttribute('aria-label', /A \(before\.nvtxt\) filled, B \(after\.nvtxt\) outlined/);
  await expect(detail.getByTestId('histogram-legend-first')).toHaveText('A before.nvtxt');
  await expect(detail.getByTestId('histogram-legend-second')).toHaveText('B after.nvtxt');
  // The swatches use the two series colors, which differ.
  const swatches = await detail.locator('.st-hist-swatch').evaluateAll((els) =>
    els.map((e) => {
      const cs = getComputedStyle(e);
      return cs.backgroundColor + ' ' + cs.borderTopColor;
    }),
  );
  expect(swatches).toHaveLength(2);
  expect(swatches[0]).not.toBe(swatches[1]);
  // Something is drawn in both series' colors: A's translucent bars and B's outline.
  const colors = await histogram.evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let blueish = 0;
    let orangeish = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, b, a] = [data[i], data[i + 2], data[i + 3]];
      if (a < 40) continue;
      if (b > r + 40) blueish++;
      if (r > b + 80 && r > 150) orangeish++;
    }
    return { blueish, orangeish };
  });
  expect(colors.blueish).toBeGreaterThan(50);
  expect(colors.orangeish).toBeGreaterThan(50);

  // Hovering a bin reads both counts of that bin; they add up over the bins to each side's count.
  await histogram.scrollIntoViewIfNeeded();
  const box = (await histogram.boundingBox())!;
  const binsShown = Number(await histogram.getAttribute('data-bins'));
  let sumA = 0;
  let sumB = 0;
  for (let bin = 0; bin < binsShown; bin++) {
    await page.mouse.move(box.x + ((bin + 0.5) * box.width) / binsShown, box.y + box.height / 2);
    const text = (await detail.getByTestId('histogram-hover').textContent()) ?? '';
    const m = /: A ([\d,]+) \([\d.]+%\) · B ([\d,]+) \([\d.]+%\)$/.exec(text);
    expect(m, text).not.toBeNull();
    sumA += Number(m![1].replace(/,/g, ''));
    sumB += Number(m![2].replace(/,/g, ''));
  }
  expect([sumA, sumB]).toEqual([200, 200]);

  // A band over the right half counts both sides' instances there: B (20% slower) has more.
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.mouse.up();
  const bandText = (await detail.getByTestId('compare-band').textContent()) ?? '';
  const inBand = /: A ([\d,]+), B ([\d,]+) instances/.exec(bandText);
  expect(inBand, bandText).not.toBeNull();
  expect(Number(inBand![2])).toBeGreaterThan(Number(inBand![1]));
  const highlighted = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
      captures: { id: number; model: { capture: { fileName: string } } }[];
      highlight: { capture: number; ranges: Int32Array } | null;
    };
    const after = s.captures.find((c) => c.model.capture.fileName === 'after.nvtxt')!;
    return { capture: s.highlight?.capture, after: after.id, n: s.highlight?.ranges.length };
  });
  expect(highlighted).toEqual({ capture: highlighted.after, after: highlighted.after, n: Number(inBand![2]) });
  await expect(detail).toContainText('Mann–Whitney U');

  await detail.getByTestId('compare-slowest-B').click();
  await idle(page);
  const picked = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    const after = s.captures.find((c) => c.model.capture.fileName === 'after.nvtxt')!;
    return { selection: s.selection, after: after.id };
  });
  expect(picked.selection).toMatchObject({ kind: 'range', capture: picked.after });

  // Align B under A at the 3rd instance of "step": both start at one time on the shared axis.
  await detail.getByTestId('compare-align-n').fill('3');
  await detail.getByTestId('compare-align').click();
  await expect(detail.getByTestId('compare-align-note')).toHaveText('instance 3 of both starts at one time');
  const starts = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
      captures: { offsetNs: number; model: { capture: { fileName: string }; strings: string[]; styles: { name: Uint32Array }; ranges: { startNs: Float64Array; style: Uint32Array } } }[];
    };
    return s.captures.map((c) => {
      const r = c.model.ranges;
      const step = [] as number[];
      for (let i = 0; i < r.startNs.length; i++) if (c.model.strings[c.model.styles.name[r.style[i]]] === 'step') step.push(r.startNs[i]);
      step.sort((x, y) => x - y);
      return { name: c.model.capture.fileName, third: c.offsetNs + step[2] };
    });
  });
  expect(starts[0].third).toBe(starts[1].third);

  // The comparison is part of the link.
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('cmp=');
  const hash = await page.evaluate(() => location.hash);
  expect(hash).toContain('panel=compare');
  expect(hash).toContain('cmprow=PushPop%7Cstep');
  await page.screenshot({ path: 'test-results/compare.png' });
  // The overlaid histogram with its band, in both themes.
  await detail.locator('.st-hist').screenshot({ path: 'test-results/compare-histogram.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await detail.locator('.st-hist').screenshot({ path: 'test-results/compare-histogram-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // Opening the link and dropping the same files brings the comparison back, row open.
  const linked = await page.context().newPage();
  await linked.setViewportSize({ width: 1400, height: 900 });
  await openApp(linked, hash);
  await loadPair(linked);
  await expect(linked.getByTestId('compare-detail')).toBeVisible();
  await expect(linked.getByTestId('compare-detail')).toContainText('step');
  await expect(linked.getByTestId('compare-base')).toHaveValue(
    String(await linked.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().captures.find((c) => c.model.capture.fileName === 'before.nvtxt')!.id)),
  );

  // A range only in B still gets the overlaid view: A's series is empty, B's holds all 30.
  await row(linked, 'warmup').click();
  const added = linked.getByTestId('compare-detail');
  await expect(added.getByTestId('histogram')).toHaveAttribute('data-series', '2');
  await expect(added.getByTestId('compare-side-A')).toContainText('no instances');
  await expect(added.getByTestId('compare-slowest-A')).toBeDisabled();
  await added.getByTestId('histogram').scrollIntoViewIfNeeded();
  const addedBox = (await added.getByTestId('histogram').boundingBox())!;
  const addedBins = Number(await added.getByTestId('histogram').getAttribute('data-bins'));
  let inB = 0;
  for (let bin = 0; bin < addedBins; bin++) {
    await linked.mouse.move(addedBox.x + ((bin + 0.5) * addedBox.width) / addedBins, addedBox.y + addedBox.height / 2);
    const text = (await added.getByTestId('histogram-hover').textContent()) ?? '';
    const m = /: A 0 \(0\.0%\) · B ([\d,]+) \([\d.]+%\)$/.exec(text);
    expect(m, text).not.toBeNull();
    inB += Number(m![1]);
  }
  expect(inB).toBe(30);
});

test('compares in the statistics worker when the worker threshold is met: same table, detail and slowest instance', async ({ page }) => {
  // The test captures are small: lower the threshold so that the worker path runs them.
  await page.addInitScript(() => {
    (window as unknown as { __nvtxview: Record<string, unknown> }).__nvtxview = { workerMinEvents: 0 };
  });
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.setViewportSize({ width: 1400, height: 900 });
  await openApp(page);
  await loadPair(page);
  await page.locator('#tab-compare').click();
  await page.getByTestId('compare-base').selectOption({ label: 'before.nvtxt' });
  await page.getByTestId('compare-candidate').selectOption({ label: 'after.nvtxt' });
  await expect(page.getByTestId('compare-summary')).toHaveText('1 slower, 1 added, 1 removed, 2 within noise');
  expect(workers.some((url) => /stats/.test(url))).toBe(true);
  await expect(row(page, 'step')).toHaveAttribute('data-status', 'slower');
  await expect(row(page, 'noisy io')).toHaveAttribute('data-status', 'within-noise');

  // Another grouping and back: each answer replaces the table, none arrives late over a newer one.
  await page.getByTestId('compare-group-by').selectOption('thread');
  await page.getByTestId('compare-group-by').selectOption('name');
  await expect(page.getByTestId('compare-row')).toHaveCount(5);
  await expect(page.getByTestId('compare-row').first()).toHaveAttribute('data-name', 'step');

  // A row's detail reads the page's own models with the worker's group keys.
  await row(page, 'step').click();
  const detail = page.getByTestId('compare-detail');
  await expect(detail).toContainText('step');
  await expect(page.getByTestId('compare-side-A')).toContainText('200 instances');
  await expect(page.getByTestId('compare-side-B')).toContainText('200 instances');
  await page.getByTestId('compare-slowest-B').click();
  await expect.poll(() => page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().selection !== null)).toBe(true);

  // Align at the 7th instance: found in the worker, applied on the page; both 7th "step" ranges start at one time.
  await detail.getByTestId('compare-align-n').fill('7');
  await detail.getByTestId('compare-align').click();
  await expect(detail.getByTestId('compare-align-note')).toHaveText('instance 7 of both starts at one time');
  const seventh = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
      captures: { offsetNs: number; model: { strings: string[]; styles: { name: Uint32Array }; ranges: { startNs: Float64Array; style: Uint32Array } } }[];
    };
    return s.captures.map((c) => {
      const r = c.model.ranges;
      const step = [] as number[];
      for (let i = 0; i < r.startNs.length; i++) if (c.model.strings[c.model.styles.name[r.style[i]]] === 'step') step.push(r.startNs[i]);
      step.sort((x, y) => x - y);
      return c.offsetNs + step[6];
    });
  });
  expect(seventh[0]).toBe(seventh[1]);
  await detail.getByTestId('compare-align-n').fill('201');
  await detail.getByTestId('compare-align').click();
  await expect(detail.getByTestId('compare-align-note')).toHaveText('A or B has fewer than 201 instances');
});

/** Drops files on the element `selector` (a "drop to compare" target) the way a file manager does. */
async function dropOn(page: Page, selector: string, files: { name: string; text: string }[]): Promise<void> {
  await page.evaluate(
    ([sel, list]) => {
      const target = document.querySelector(sel)!;
      const data = new DataTransfer();
      for (const f of list) data.items.add(new File([f.text], f.name, { type: 'text/plain' }));
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    [selector, files] as const,
  );
}

/** File names of the store's captures (the order loads finished) and of the Compare tab's A and B. */
async function order(page: Page): Promise<{ loaded: string[]; a: string; b: string }> {
  const loaded = await page.evaluate(() => (window as unknown as HookedWindow).__nvtxview.store.getState().captures.map((c) => c.model.capture.fileName));
  const label = (id: string) => page.getByTestId(id).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');
  return { loaded, a: await label('compare-base'), b: await label('compare-candidate') };
}

// A large file (about 9 MB of NVTXT, 150,000 ranges) and a small one: the small one finishes loading first.
const BIG = capturePairNvtxt({ seed: 9, threads: 8, ranges: [{ name: 'step', base: side(150_000, 50_000, 0.2), candidate: side(10, 50_000, 0.2) }] });
const DROPPED = [
  { name: 'big-first.nvtxt', text: BIG.base },
  { name: 'small-second.nvtxt', text: BIG.candidate },
];

test('files dropped on the "compare" target open the Compare tab with A = the first dropped, B = the second, whichever loads first', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await openApp(page);
  await expect(page.getByTestId('compare-drop')).toContainText('Compare two runs');
  await page.getByTestId('empty-state').screenshot({ path: 'test-results/compare-drop-empty.png' });
  await dropOn(page, '[data-testid="compare-drop"]', DROPPED);
  // The Compare tab opens while the files load, and waits for them.
  await expect(page.getByTestId('compare-panel')).toBeVisible({ timeout: 30_000 });
  await waitForCaptures(page, 2, 60_000);
  await expect(page.getByTestId('compare-row')).toHaveCount(1, { timeout: 30_000 });
  const dropped = await order(page);
  // The small file was loaded first (so the race went against the drop order)...
  expect(dropped.loaded).toEqual(['small-second.nvtxt', 'big-first.nvtxt']);
  // ...and still A is the first file dropped, B the second; the link says so too.
  expect({ a: dropped.a, b: dropped.b }).toEqual({ a: 'big-first.nvtxt', b: 'small-second.nvtxt' });
  await expect(page.locator('[data-testid="compare-row"]').first().locator('.num').first()).toHaveText('150,000');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('cmp=1_0_name');

  // Align at the 100th instance of a 150,000-instance row: found in the statistics worker while
  // the page keeps drawing (longest gap between frames; generous, the host is shared).
  await page.getByTestId('compare-row').first().click();
  await expect(page.getByTestId('compare-side-A')).toContainText('150,000 instances', { timeout: 30_000 });
  await page.getByTestId('compare-align-n').fill('10');
  await startFrameGapMeter(page);
  await page.getByTestId('compare-align').click();
  await expect(page.getByTestId('compare-align-note')).toHaveText('instance 10 of both starts at one time', { timeout: 20_000 });
  const gap = await longestFrameGap(page);
  expect(gap).toBeLessThan(1000);

  // A plain drop on the page (not on the target): the Compare tab's default A and B follow the drop order too.
  const plain = await page.context().newPage();
  await plain.setViewportSize({ width: 1400, height: 900 });
  await openApp(plain);
  await dropFiles(plain, DROPPED);
  await waitForCaptures(plain, 2, 60_000);
  await plain.locator('#tab-compare').click();
  await expect(plain.getByTestId('compare-row')).toHaveCount(1, { timeout: 30_000 });
  const defaults = await order(plain);
  expect(defaults.loaded).toEqual(['small-second.nvtxt', 'big-first.nvtxt']);
  expect({ a: defaults.a, b: defaults.b }).toEqual({ a: 'big-first.nvtxt', b: 'small-second.nvtxt' });

  // Dragging files over a page with captures shows a "drop here to compare" box: one file dropped
  // there is compared (as B) with the baseline shown (A).
  await plain.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['x'], 'x.nvtxt'));
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(plain.getByTestId('drop-compare-overlay')).toBeVisible();
  await plain.screenshot({ path: 'test-results/compare-drop-overlay.png' });
  await dropOn(plain, '[data-testid="drop-compare-overlay"]', [FILES[1]]);
  await expect(plain.getByTestId('drop-overlay')).toHaveCount(0);
  await waitForCaptures(plain, 3);
  await expect.poll(async () => (await order(plain)).b).toBe('after.nvtxt');
  expect((await order(plain)).a).toBe('big-first.nvtxt');
});

test('"Pick two files…" on the empty page compares them in the order picked', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openApp(page);
  await interceptFileChoosers(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('compare-drop').getByRole('button', { name: 'Pick two files…' }).click();
  await (await chooser).setFiles([
    { name: 'after.nvtxt', mimeType: 'text/plain', buffer: Buffer.from(pair.candidate) },
    { name: 'before.nvtxt', mimeType: 'text/plain', buffer: Buffer.from(pair.base) },
  ]);
  await waitForCaptures(page, 2);
  await expect(page.getByTestId('compare-row')).toHaveCount(5);
  const picked = await order(page);
  expect({ a: picked.a, b: picked.b }).toEqual({ a: 'after.nvtxt', b: 'before.nvtxt' });
  // after → before: the 20% slowdown reads as a speed-up, the added range as removed.
  await expect(row(page, 'step')).toHaveAttribute('data-status', 'faster');
  await expect(row(page, 'warmup')).toHaveAttribute('data-status', 'removed');
  // A plain "Open files…" afterwards opens without comparing anew.
  const plain = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open…' }).click();
  await (await plain).setFiles([{ name: 'third.nvtxt', mimeType: 'text/plain', buffer: Buffer.from(pair.base) }]);
  await waitForCaptures(page, 3);
  expect(await order(page)).toMatchObject({ a: 'after.nvtxt', b: 'before.nvtxt' });
});
