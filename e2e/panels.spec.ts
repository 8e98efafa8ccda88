/**
 * The side panels, statistics and header as a Nsight/Perfetto user meets them (issue 17 items 4,
 * 5, 6, 9; issue 11 unended ranges), at 1280×720 and at 1024×768. Screenshots in
 * test-results/panels-*.png.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, findRange, GOOD_NVTXT, idle, openApp, waitForCaptures, type HookedWindow, type TextFile } from './support.ts';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
];

/** Three "request" start/end ranges that end and two that never do; a "session" push never popped. */
const OPEN_RANGES: TextFile = {
  name: 'open.nvtxt',
  text: [
    'NameProcess, 7, server',
    'NameOsThread, 7, 1, main',
    'RangeStartEnd, 1000, 3000, ns, 7, 1, 0, Blue, "request", 0',
    'RangeStartEnd, 4000, 8000, ns, 7, 1, 0, Blue, "request", 0',
    'RangeStartEnd, 9000, 15000, ns, 7, 1, 0, Blue, "request", 0',
    'RangePush, 500, ns, 7, 1, 0, Green, "session", 0',
    'RangePush, 600, ns, 7, 1, 0, Green, "handle", 0',
    'RangePop, 900, ns, 7, 1',
    'Marker, 100000, ns, 7, 1, 0, Red, "last", 0',
    '',
  ].join('\n'),
};

/**
 * Numeric cells and headers of the range table whose text does not fit (drawn with an ellipsis):
 * the laid-out width of the text against the cell's content box (Chromium reports no overflow in
 * scrollWidth for an ellipsis).
 */
async function clippedCells(page: Page): Promise<string[]> {
  await expect(page.getByTestId('range-table')).not.toHaveClass(/busy/);
  return page.getByTestId('range-table').evaluate((table) =>
    Array.from(table.querySelectorAll<HTMLElement>('.st-cell:not(.name)'))
      .filter((cell) => {
        const text = document.createRange();
        text.selectNodeContents(cell);
        const style = getComputedStyle(cell);
        const room = cell.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return text.getBoundingClientRect().width > room + 0.5;
      })
      .map((cell) => `${cell.textContent ?? ''} (${cell.getBoundingClientRect().width.toFixed(0)} px)`),
  );
}

async function showAllColumns(page: Page): Promise<void> {
  const panel = page.getByTestId('stats-panel');
  await panel.getByRole('button', { name: 'Columns ▾' }).click();
  const menu = page.getByRole('dialog', { name: 'Columns' });
  for (const box of await menu.getByRole('checkbox').all()) await box.check();
  await page.keyboard.press('Escape');
}

for (const size of SIZES) {
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: size });
    const tag = `${size.width}x${size.height}`;

    test('every statistics column stays readable, scrolling sideways when the panel is narrow', async ({ page }) => {
      await openApp(page, '?demo');
      await waitForCaptures(page, 1);
      const table = page.getByTestId('range-table');
      await expect(table.getByTestId('stats-row').first()).toBeVisible();
      expect(await clippedCells(page), 'default columns').toEqual([]);
      await showAllColumns(page);
      await expect(table.getByRole('columnheader')).toHaveCount(14);
      expect(await clippedCells(page), 'all columns').toEqual([]);
      // Wider than the panel: the table scrolls, header and rows together.
      const overflow = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(overflow.scroll).toBeGreaterThan(overflow.client);
      await page.screenshot({ path: `test-results/panels-columns-${tag}.png` });
      await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      const head = await table.getByRole('columnheader', { name: /^P99/ }).boundingBox();
      const cell = await table.getByTestId('stats-row').first().getByRole('cell').last().boundingBox();
      expect(Math.abs(head!.x - cell!.x)).toBeLessThan(2);
      await page.screenshot({ path: `test-results/panels-columns-scrolled-${tag}.png` });
    });

    test('the header shows the loaded captures, each closable', async ({ page }) => {
      await openApp(page);
      await dropFiles(page, [GOOD_NVTXT, OPEN_RANGES, { ...GOOD_NVTXT, name: 'second render loop with a long file name.nvtxt', text: GOOD_NVTXT.text.replace('"Render loop"', '"second render loop with a long file name"') }]);
      await waitForCaptures(page, 3);
      const chips = page.getByTestId('capture-chip');
      await expect(chips).toHaveCount(3);
      for (const chip of await chips.all()) {
        await expect(chip).toBeVisible();
        const box = (await chip.boundingBox())!;
        expect(box.x + box.width, 'chip inside the window').toBeLessThanOrEqual(size.width);
        await expect(chip.getByRole('button', { name: /^Close / })).toBeVisible();
      }
      // Labels keep the start and the end of the name; the tooltip has it all.
      // (Captures are listed in the order their loads finish.)
      const long = page.locator('[data-testid=capture-chip][title^="second render loop"]');
      await expect(long).toHaveAttribute('title', /^second render loop with a long file name · /);
      expect((await long.locator('.chip-label').textContent())!).toMatch(/^se.*name$/);
      await page.screenshot({ path: `test-results/panels-header-${tag}.png` });
      // The menu lists every capture in full, each closable.
      await page.getByTestId('capture-menu').click();
      const list = page.getByRole('dialog', { name: 'Loaded captures' });
      expect((await list.locator('strong').allTextContents()).sort()).toEqual(['Render loop', 'open.nvtxt', 'second render loop with a long file name']);
      await page.screenshot({ path: `test-results/panels-header-menu-${tag}.png` });
      await list.getByRole('button', { name: 'Close open.nvtxt' }).click();
      await expect(chips).toHaveCount(2);
      await page.keyboard.press('Escape');
      // Nothing here uses a Qpc or Rdtsc clock: no Tick rates button.
      await expect(page.getByRole('button', { name: 'Tick rates' })).toHaveCount(0);
    });

    test('selection details put duration, payload and children first, with most of the panel', async ({ page }) => {
      await openApp(page, '?demo');
      await waitForCaptures(page, 1);
      const step = await findRange(page, 'step 3');
      await page.evaluate((t) => (window as unknown as HookedWindow).__nvtxview.store.getState().select({ kind: 'range', ...t }), step);
      await idle(page);
      const details = page.getByTestId('range-details');
      await expect(details.getByTestId('detail-name')).toHaveText('step 3');
      const section = (await page.locator('.selection-section').boundingBox())!;
      const panel = (await page.getByTestId('side-panel').boundingBox())!;
      expect(section.height / panel.height, 'share of the panel').toBeGreaterThan(0.45);
      // Payload and the children table are in view without scrolling the section.
      for (const id of ['detail-duration', 'detail-payload', 'child-breakdown']) {
        const box = (await details.getByTestId(id).boundingBox())!;
        expect(box.y + Math.min(box.height, 40), `${id} above the fold`).toBeLessThanOrEqual(section.y + section.height);
      }
      await page.screenshot({ path: `test-results/panels-details-${tag}.png` });
    });
  });
}

test('ranges that never ended are counted apart from every statistic', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [OPEN_RANGES]);
  await waitForCaptures(page, 1);
  const table = page.getByTestId('range-table');
  await expect(table.getByRole('columnheader', { name: /^Unended/ })).toBeVisible();
  const row = (name: string) => table.getByTestId('stats-row').filter({ has: page.locator('.st-name', { hasText: new RegExp(`^${name}$`) }) });
  const header = await table.getByRole('columnheader').allTextContents();
  const col = (title: string) => header.findIndex((h) => h.startsWith(title));
  const cells = async (name: string) => row(name).getByRole('cell').allTextContents();
  const request = await cells('request');
  expect(request[col('Inst.')]).toBe('3');
  expect(request[col('Unended')]).toBe('0');
  expect(request[col('Total')]).toBe('12 µs');
  const session = await cells('session');
  expect(session[col('Inst.')]).toBe('0');
  expect(session[col('Unended')]).toBe('1');
  expect(session[col('Avg')]).toBe('-');
  await expect(page.getByTestId('unended-total')).toContainText('1 never ended');
  await page.screenshot({ path: 'test-results/panels-unended.png' });
  // The detail of the row says why it has no distribution.
  await row('session').click();
  await expect(page.getByTestId('detail-unended')).toContainText('1 never ended');
  // The range itself reads as a lower bound.
  const session0 = await findRange(page, 'session');
  await page.evaluate((t) => (window as unknown as HookedWindow).__nvtxview.store.getState().select({ kind: 'range', ...t }), session0);
  await expect(page.getByTestId('range-details').getByTestId('detail-duration')).toContainText('≥');
  await expect(page.getByTestId('range-details').getByTestId('detail-end')).toContainText('never ended');
});

test('a kernel shows its short name, the full one on demand, and no CPU-only fields', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('open-input').setInputFiles({ name: 'fuser-report1.sqlite', mimeType: 'application/vnd.sqlite3', buffer: readFileSync('../shared/fixtures/nsys/fuser-report1.sqlite') });
  await waitForCaptures(page, 1);
  // The GPU range with the longest name.
  const kernel = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
      captures: { id: number; model: { tracks: { kind: string; rangeBegin: number; rangeEnd: number }[]; strings: string[]; styles: { name: Uint32Array }; ranges: { style: Uint32Array } } }[];
    };
    const c = s.captures[0];
    const m = c.model;
    let best = { index: -1, name: '' };
    for (const t of m.tracks) {
      if (t.kind !== 'gpu') continue;
      for (let r = t.rangeBegin; r < t.rangeEnd; r++) {
        const name = m.strings[m.styles.name[m.ranges.style[r]]];
        if (name.length > best.name.length) best = { index: r, name };
      }
    }
    return { capture: c.id, ...best };
  });
  expect(kernel.name.length).toBeGreaterThan(60);
  await page.evaluate((t) => (window as unknown as HookedWindow).__nvtxview.store.getState().select({ kind: 'range', capture: t.capture, index: t.index }), kernel);
  const details = page.getByTestId('range-details');
  const shown = (await details.getByTestId('detail-name').textContent())!;
  expect(shown.length).toBeLessThan(kernel.name.length);
  expect(kernel.name).toContain(shown);
  for (const field of ['Thread', 'Lane', 'Children', 'Parents', 'Color']) await expect(details.locator('dt', { hasText: new RegExp(`^${field}$`) })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/panels-kernel-short.png' });
  await details.getByTestId('detail-name-toggle').click();
  await expect(details.getByTestId('detail-full-name')).toHaveText(kernel.name);
  await page.screenshot({ path: 'test-results/panels-kernel-full.png' });
});

test('Esc closes the search and keeps the query; Ctrl+F brings it back', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [GOOD_NVTXT]);
  await waitForCaptures(page, 1);
  await page.getByRole('img', { name: 'Timeline' }).hover();
  await page.keyboard.press('Control+f');
  const bar = page.getByTestId('search-bar');
  const input = bar.getByRole('textbox');
  await input.fill('read');
  await expect(bar.getByTestId('search-status')).toHaveText('2 matches');
  await input.press('Escape');
  await expect(bar).toHaveCount(0);
  // The timeline no longer fades non-matches.
  expect(await page.evaluate(() => ((window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as { search: { text: string } }).search.text)).toBe('');
  await page.getByRole('img', { name: 'Timeline' }).hover();
  await page.keyboard.press('Control+f');
  await expect(input).toHaveValue('read');
  await expect(bar.getByTestId('search-status')).toHaveText('2 matches');
  // Selected: typing replaces it.
  await page.keyboard.type('draw');
  await expect(input).toHaveValue('draw');
});

test('a share link opened without its file names the file to drop', async ({ page }) => {
  await openApp(page, '#v=1&c=render.nvtxt&t=0_5000000');
  await expect(page.getByTestId('link-files')).toContainText('render.nvtxt');
  await expect(page.getByTestId('empty-state').getByRole('heading')).toHaveText('Drop the file of this link');
  await page.screenshot({ path: 'test-results/panels-link-files.png' });
  await dropFiles(page, [GOOD_NVTXT]);
  await waitForCaptures(page, 1);
  await expect(page.getByTestId('empty-state')).toHaveCount(0);
});

test('Cancel leaves a notice that the file was not loaded', async ({ page }) => {
  await openApp(page);
  await page.evaluate(() => {
    const lines: string[] = [];
    for (let i = 0; i < 8000; i++) lines.push(`RangePush, ${i * 1000}, ns, 1, 2, 0, 0, "step", ${i}`, `RangePop, ${i * 1000 + 400}, ns, 1, 2`);
    const chunk = new TextEncoder().encode(lines.join('\n') + '\n');
    const parts: BlobPart[] = [];
    for (let size = 0; size < 200 * 1024 * 1024; size += chunk.length) parts.push(chunk);
    const data = new DataTransfer();
    data.items.add(new File(parts, 'huge.nvtxt'));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  const progress = page.getByTestId('load-progress');
  await expect(progress).toContainText('huge.nvtxt');
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveCount(0);
  const notice = page.getByTestId('share-notice');
  await expect(notice).toContainText('Loading huge.nvtxt was cancelled');
  await page.screenshot({ path: 'test-results/panels-cancel.png' });
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

test('an NVTX range of an Nsight export shows its CUDA statistics above the fold', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('open-input').setInputFiles({ name: 'fuser-report1.sqlite', mimeType: 'application/vnd.sqlite3', buffer: readFileSync('../shared/fixtures/nsys/fuser-report1.sqlite') });
  await waitForCaptures(page, 1);
  const range = await findRange(page, 'FusionExecutorCache::runFusionWithInputs');
  await page.evaluate((t) => (window as unknown as HookedWindow).__nvtxview.store.getState().select({ kind: 'range', ...t }), range);
  await idle(page);
  const details = page.getByTestId('range-details');
  // An NVTX name is the program's own: never shortened.
  await expect(details.getByTestId('detail-name')).toHaveText('FusionExecutorCache::runFusionWithInputs');
  const section = (await page.locator('.selection-section').boundingBox())!;
  const stats = (await page.getByTestId('cuda-stats').boundingBox())!;
  expect(stats.y + 60, 'CUDA statistics start above the fold').toBeLessThanOrEqual(section.y + section.height);
  await page.screenshot({ path: 'test-results/panels-cuda-details.png' });
  // The children list shows the largest names first, the rest on demand.
  const children = details.getByTestId('child-breakdown');
  const more = children.getByTestId('children-show-all');
  if ((await more.count()) > 0) {
    const before = await children.locator('tbody tr').count();
    await more.click();
    expect(await children.locator('tbody tr').count()).toBeGreaterThan(before);
  }
});
