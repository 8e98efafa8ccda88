/**
 * Finding one's way around a capture: the name search and its stepping, the push/pop hierarchy by
 * keyboard, the category filter (rows leave the timeline and the statistics), the events table in
 * step with the timeline selection, and the health list's links. Screenshots of each step go to
 * test-results/navigate-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { GOOD_NVTXT, dropFiles, findRange, idle, openApp, rangePoint, waitForCaptures, type HookedWindow, type TextFile } from './support.ts';

interface StoreView {
  selection: { kind: string; capture: number; index: number } | null;
  search: { text: string; regex: boolean; matchCase: boolean };
  filters: { hidden: unknown[] };
  panel: string | null;
  viewStartNs: number;
  viewEndNs: number;
}

async function storeView(page: Page): Promise<StoreView> {
  return page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as StoreView;
    return { selection: s.selection, search: s.search, filters: s.filters, panel: s.panel, viewStartNs: s.viewStartNs, viewEndNs: s.viewEndNs };
  });
}

/** Name of the selected range or mark of the first capture. */
async function selectedName(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    const sel = s.selection;
    if (!sel) return null;
    const m = s.captures.find((c) => c.id === sel.capture)!.model as unknown as {
      strings: string[];
      styles: { name: Uint32Array };
      ranges: { style: Uint32Array };
      marks: { style: Uint32Array };
    };
    const style = sel.kind === 'range' ? m.ranges.style[sel.index] : m.marks.style[sel.index];
    return m.strings[m.styles.name[style]];
  });
}

async function openTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name });
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

async function load(page: Page, file: TextFile = GOOD_NVTXT): Promise<void> {
  await openApp(page);
  await dropFiles(page, [file]);
  await waitForCaptures(page, 1);
}

test('search: / opens it, matches are counted, Enter and Shift+Enter step through them in time order', async ({ page }) => {
  await load(page);
  await page.keyboard.press('/');
  const bar = page.getByTestId('search-bar');
  const input = bar.getByRole('textbox', { name: 'Search range and mark names' });
  await expect(input).toBeFocused();
  await input.fill('READ');
  await expect(bar.getByTestId('search-status')).toHaveText('2 matches');
  expect((await storeView(page)).search.text).toBe('READ');
  await idle(page);
  await page.screenshot({ path: 'test-results/navigate-search.png' });

  await input.press('Enter');
  await expect(bar.getByTestId('search-status')).toHaveText('1 of 2');
  expect(await selectedName(page)).toBe('read assets');
  await input.press('Enter');
  await expect(bar.getByTestId('search-status')).toHaveText('2 of 2');
  expect(await selectedName(page)).toBe('read shaders');
  // The revealed match is on screen, drawn as its own box.
  const shaders = await findRange(page, 'read shaders');
  await idle(page);
  await expect
    .poll(() => rangePoint(page, shaders.capture, shaders.index))
    .not.toBeNull();
  await input.press('Enter');
  await expect(bar.getByTestId('search-status')).toHaveText('1 of 2');
  await input.press('Shift+Enter');
  await expect(bar.getByTestId('search-status')).toHaveText('2 of 2');

  // A regular expression over range and mark names, marks included.
  await bar.getByRole('button', { name: 'Regular expression' }).click();
  await input.fill('^(up|v)');
  await expect(bar.getByTestId('search-status')).toHaveText('2 matches');
  await input.fill('(');
  await expect(bar.getByTestId('search-status')).toHaveText('Invalid expression');

  await input.press('Escape');
  await expect(bar).toHaveCount(0);
  expect((await storeView(page)).search.text).toBe('');
  // Ctrl+F opens it again.
  await page.getByRole('img', { name: 'Timeline' }).hover();
  await page.keyboard.press('Control+f');
  await expect(page.getByTestId('search-bar')).toBeVisible();
});

test('hierarchy: arrows, * and / move through the push/pop tree, Enter zooms the timeline', async ({ page }) => {
  await load(page);
  await openTab(page, 'Hierarchy');
  const panel = page.getByTestId('hierarchy-panel');
  const rows = panel.getByTestId('hierarchy-row');
  const names = () => rows.locator('.tree-name').allTextContents();
  await expect(rows).toHaveCount(1);
  expect(await names()).toEqual(['frame']);

  await rows.first().click();
  expect(await selectedName(page)).toBe('frame');
  const keys = panel.getByTestId('hierarchy-rows');
  await keys.press('ArrowRight');
  await expect.poll(names).toEqual(['frame', 'update', 'draw']);
  await keys.press('ArrowDown');
  await keys.press('ArrowDown');
  // Moving selects: the timeline and the other panels follow.
  await expect.poll(() => selectedName(page)).toBe('draw');
  await expect(rows.nth(2)).toHaveClass(/focused/);
  await expect(rows.nth(2).locator('[role=gridcell]').nth(3)).toHaveText('6 ms');
  await keys.press('ArrowLeft');
  await expect.poll(() => selectedName(page)).toBe('frame');
  await keys.press('ArrowLeft');
  await expect.poll(names).toEqual(['frame']);
  await keys.press('*');
  await expect.poll(names).toEqual(['frame', 'update', 'draw']);
  await keys.press('/');
  await expect.poll(names).toEqual(['frame']);
  await keys.press('ArrowRight');
  await expect.poll(names).toEqual(['frame', 'update', 'draw']);
  await page.screenshot({ path: 'test-results/navigate-hierarchy.png' });

  // Enter: the timeline zooms to the focused range (9 ms) with some context on both sides.
  await keys.press('ArrowDown');
  await keys.press('Enter');
  await idle(page);
  expect(await selectedName(page)).toBe('update');
  const view = await storeView(page);
  const update = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    const c = s.captures[0] as unknown as { offsetNs: number; model: { ranges: { startNs: Float64Array; endNs: Float64Array } } };
    const i = s.selection!.index;
    return { start: c.model.ranges.startNs[i] + c.offsetNs, end: c.model.ranges.endNs[i] + c.offsetNs };
  });
  expect(update.end - update.start).toBe(2e6);
  // The whole range in view, filling a good part of it (not the whole capture any more).
  expect(view.viewStartNs).toBeLessThanOrEqual(update.start);
  expect(view.viewEndNs).toBeGreaterThanOrEqual(update.end);
  expect(view.viewEndNs - view.viewStartNs).toBeLessThan(4 * (update.end - update.start));
});

test('filters: hiding a category takes its rows and ranges off the timeline and out of the statistics', async ({ page }) => {
  await load(page);
  const tree = page.getByRole('tree', { name: 'Tracks' });
  const ioRow = tree.getByRole('treeitem').filter({ hasText: 'IO (2)' });
  await expect(ioRow.first()).toBeVisible();
  const stats = page.getByTestId('range-table');
  const statNames = () => stats.getByTestId('stats-row').allTextContents();
  await expect.poll(async () => (await statNames()).some((t) => t.includes('read assets'))).toBe(true);
  const assets = await findRange(page, 'read assets');
  await expect
    .poll(() => rangePoint(page, assets.capture, assets.index))
    .not.toBeNull();

  await page.getByTestId('filter-button').click();
  const menu = page.getByRole('dialog', { name: 'Filters' });
  const categories = menu.getByRole('region', { name: 'Categories' });
  await categories.getByRole('checkbox', { name: /IO \(2\)/ }).uncheck();
  await idle(page);
  await page.screenshot({ path: 'test-results/navigate-filter.png' });
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);

  await expect(ioRow).toHaveCount(0);
  await expect.poll(async () => (await statNames()).some((t) => t.includes('read'))).toBe(false);
  await expect.poll(async () => (await statNames()).some((t) => t.includes('frame'))).toBe(true);
  expect(await rangePoint(page, assets.capture, assets.index)).toBeNull();
  await expect(page.getByTestId('filter-button')).toContainText('1');
  // The filter is part of the link.
  await expect.poll(() => page.evaluate(() => decodeURIComponent(window.location.hash))).toContain('filter=c::2');

  // The events table leaves hidden events out too.
  await openTab(page, 'Events');
  await expect(page.getByTestId('events-count')).toHaveText('4 of 6 events');

  await page.getByTestId('filter-button').click();
  await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: 'Show everything' }).click();
  await expect(ioRow.first()).toBeVisible();
  await expect(page.getByTestId('events-count')).toHaveText('6 events');
});

test('events table: a row selects and reveals its event on the timeline, and a timeline click scrolls the table', async ({ page }) => {
  await load(page);
  await openTab(page, 'Events');
  const panel = page.getByTestId('events-panel');
  const rows = panel.getByTestId('event-row');
  await expect(rows).toHaveCount(6);
  await expect(rows.locator('.col-name')).toHaveText(['frame', 'update', 'read assets', 'draw', 'read shaders', 'vsync']);

  await rows.filter({ hasText: 'draw' }).click();
  expect(await selectedName(page)).toBe('draw');
  await idle(page);
  const draw = await findRange(page, 'draw');
  const at = await rangePoint(page, draw.capture, draw.index);
  expect(at).not.toBeNull();
  await expect(rows.filter({ hasText: 'draw' })).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: 'test-results/navigate-events.png' });

  // Sorting by duration (longest first), filtering by text and by a column value.
  await panel.getByRole('columnheader', { name: 'Duration' }).getByRole('button', { name: /Duration/ }).click();
  await expect(rows.locator('.col-name')).toHaveText(['frame', 'draw', 'read assets', 'read shaders', 'update', 'vsync']);
  await panel.getByRole('searchbox', { name: 'Filter events' }).fill('loader');
  await expect(rows.locator('.col-name')).toHaveText(['read assets', 'read shaders', 'vsync']);
  await panel.getByRole('button', { name: 'Filter Kind' }).click();
  await page.getByRole('dialog', { name: 'Kind values' }).getByRole('checkbox', { name: /Mark/ }).uncheck();
  await page.keyboard.press('Escape');
  await expect(rows.locator('.col-name')).toHaveText(['read assets', 'read shaders']);
  await panel.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(6);

  // The other way round: a click on the timeline selects the row.
  const update = await findRange(page, 'update');
  await page.keyboard.press('f');
  await idle(page);
  const point = await rangePoint(page, update.capture, update.index);
  expect(point).not.toBeNull();
  await page.mouse.click(point!.x, point!.y);
  await expect(rows.filter({ hasText: 'update' })).toHaveAttribute('aria-selected', 'true');
  // Arrow keys in the table move the selection (rows are still by duration).
  await rows.filter({ hasText: 'update' }).click();
  await panel.getByLabel('Event rows').press('ArrowUp');
  await expect.poll(() => selectedName(page)).toBe('read shaders');
});

/** A capture with unbalanced push/pop and start/end ranges. */
const BROKEN_NVTXT: TextFile = {
  name: 'unbalanced.nvtxt',
  text: [
    'NameProcess, 7, app',
    'NameOsThread, 7, 70, main',
    'NameOsThread, 7, 71, worker',
    'RangePush, 1000000, ns, 7, 70, 0, Blue, "frame", 0',
    'RangePop, 2000000, ns, 7, 70',
    'RangePop, 3000000, ns, 7, 70',
    'RangePush, 4000000, ns, 7, 70, 0, Green, "leaked", 0',
    'RangeStartEnd, 1500000, 2500000, ns, 7, 71, 0, Red, "job", 0',
    '',
  ].join('\n'),
};

test('health: unbalanced ranges are listed with links to their place', async ({ page }) => {
  await load(page, BROKEN_NVTXT);
  await openTab(page, 'Health');
  const panel = page.getByTestId('health-panel');
  const rows = panel.getByTestId('health-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Pop with nothing open');
  await expect(rows.nth(1)).toContainText('Never popped');
  await expect(rows.nth(1)).toContainText('line 7');
  await page.screenshot({ path: 'test-results/navigate-health.png' });

  await rows.nth(1).click();
  expect(await selectedName(page)).toBe('leaked');
  // The pop with nothing open has no range: its time comes to the middle of the view.
  await rows.nth(0).click();
  const view = await storeView(page);
  expect((view.viewStartNs + view.viewEndNs) / 2).toBeCloseTo(2e6, -3);
});
