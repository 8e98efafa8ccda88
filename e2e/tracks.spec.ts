/**
 * The timeline as Nsight Systems and Perfetto users' hands expect it (issue 17): the wheel, track
 * labels, deep stacks, several captures, the context menu. Screenshots go to test-results/tracks-*.png.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, idle, openApp, rangePoint, waitForCaptures, type HookedWindow } from './support.ts';
import { GOOD_NVTXT } from './support.ts';
import { deepStack, denseRanges, manyThreads } from './timelineFiles.ts';

test.describe('wheel, as in Nsight Systems and Perfetto', () => {
  test.beforeEach(async ({ page }) => {
    await openApp(page);
    await dropFiles(page, [manyThreads(60)]);
    await waitForCaptures(page, 1);
  });

  const view = (page: Page) =>
    page.evaluate(() => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
      return { start: s.viewStartNs, end: s.viewEndNs };
    });
  const scrollTop = (page: Page) => page.locator('.tl-scroller').evaluate((el) => el.scrollTop);

  test('the wheel scrolls the tracks; Ctrl+wheel zooms at the cursor; Shift+wheel and a sideways swipe pan', async ({ page }) => {
    const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
    const before = await view(page);
    const x = canvas.x + canvas.width * 0.25;
    await page.mouse.move(x, canvas.y + 200);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => scrollTop(page)).toBeGreaterThan(200);
    expect(await view(page)).toEqual(before);
    // The tree and the canvas scrolled together: the first row left the tree's viewport.
    await idle(page);
    await page.screenshot({ path: 'test-results/tracks-wheel-scrolled.png' });

    const anchorNs = before.start + (before.end - before.start) * 0.25;
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await expect.poll(async () => (await view(page)).end - (await view(page)).start).toBeLessThan((before.end - before.start) * 0.6);
    const zoomed = await view(page);
    // The time under the cursor stayed under it.
    const nsPerPx = (before.end - before.start) / canvas.width;
    expect(Math.abs(zoomed.start + (zoomed.end - zoomed.start) * 0.25 - anchorNs)).toBeLessThan(nsPerPx);

    await page.keyboard.down('Shift');
    await page.mouse.wheel(0, 200);
    await page.keyboard.up('Shift');
    await expect.poll(async () => (await view(page)).start).toBeGreaterThan(zoomed.start);
    const panned = await view(page);
    expect(panned.end - panned.start).toBeCloseTo(zoomed.end - zoomed.start, -2);

    await page.mouse.wheel(-150, 0);
    await expect.poll(async () => (await view(page)).start).toBeLessThan(panned.start);

    // Over the track tree: the wheel scrolls it natively, Ctrl+wheel zooms the timeline (not the page).
    const swiped = await view(page);
    const tree = (await page.getByRole('tree', { name: 'Tracks' }).boundingBox())!;
    await page.mouse.move(tree.x + 60, canvas.y + 200);
    const top = await scrollTop(page);
    await page.mouse.wheel(0, 100);
    await expect.poll(() => scrollTop(page)).toBeGreaterThan(top);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await expect.poll(async () => (await view(page)).end - (await view(page)).start).toBeLessThan((swiped.end - swiped.start) * 0.8);
    expect(await page.evaluate(() => devicePixelRatio)).toBe(1);
  });

  test('a pinch (ctrl+wheel with small deltas) zooms; zooming out stops at the capture plus a small margin', async ({ page }) => {
    const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
    const before = await view(page);
    const pinch = (deltaY: number, times: number) =>
      page.evaluate(
        ({ deltaY, times, x, y }) => {
          const target = document.elementFromPoint(x, y)!;
          for (let i = 0; i < times; i++) {
            target.dispatchEvent(new WheelEvent('wheel', { deltaY, ctrlKey: true, clientX: x, clientY: y, bubbles: true, cancelable: true }));
          }
        },
        { deltaY, times, x: canvas.x + canvas.width / 2, y: canvas.y + 150 },
      );
    await pinch(-4, 20);
    await expect.poll(async () => (await view(page)).end - (await view(page)).start).toBeLessThan((before.end - before.start) * 0.6);
    await pinch(100, 60);
    await expect.poll(async () => (await view(page)).end - (await view(page)).start).toBeGreaterThan((before.end - before.start) * 0.9);
    const out = await view(page);
    const extent = await page.evaluate(() => {
      const c = (window as unknown as HookedWindow).__nvtxview.store.getState().captures[0] as unknown as {
        offsetNs: number;
        model: { durationNs: number };
      };
      return { start: c.offsetNs, end: c.offsetNs + c.model.durationNs };
    });
    // At most 5% margin on each side, whatever the wheel asked for.
    const margin = (extent.end - extent.start) * 0.05;
    expect(out.start).toBeGreaterThanOrEqual(extent.start - margin - 1);
    expect(out.end).toBeLessThanOrEqual(extent.end + margin + 1);
  });
});

test('track labels: a narrow tree elides names in the middle, never the thread id; no tid twice; categories do not repeat the file', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [manyThreads(3), GOOD_NVTXT]);
  await waitForCaptures(page, 2);
  const tree = page.getByRole('tree', { name: 'Tracks' });
  // Narrow the tree to its minimum width.
  const splitter = page.getByRole('separator', { name: 'Resize the track tree' });
  const box = (await splitter.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x - 300, box.y + 100, { steps: 4 });
  await page.mouse.up();
  await idle(page);
  const thread = tree.getByRole('treeitem', { name: 'Thread 51301' });
  await expect(thread).toBeVisible();
  // The tail holding the id shows whole, and only once in the row.
  const tail = thread.locator('.tl-label-tail');
  await expect(tail).toHaveText(' 51301');
  const tailBox = (await tail.boundingBox())!;
  const rowBox = (await thread.boundingBox())!;
  expect(tailBox.x + tailBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width);
  expect(await tail.evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5)).toBe(true);
  expect((await thread.innerText()).match(/51301/g)).toHaveLength(1);
  await expect(thread).toHaveAttribute('title', /Thread 51301/);
  const named = tree.getByRole('treeitem', { name: 'worker2 (51302)' });
  await expect(named.locator('.tl-label-tail')).toHaveText(' (51302)');
  // The name gave way, with an ellipsis, before the id did.
  expect(await named.locator('.tl-label-head').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  const main = tree.getByRole('treeitem', { name: 'main (4880)' });
  expect((await main.innerText()).match(/4880/g)).toHaveLength(1);
  // A long name is elided in its head: an ellipsis, then the tail.
  const process = tree.getByRole('treeitem', { name: 'server (7)' });
  await expect(process.locator('.tl-label-tail')).toHaveText(' (7)');
  // NVTXT category rows name the category only; the capture row names the file.
  const io = tree.getByRole('treeitem', { name: 'IO (2)' });
  await expect(io).toBeVisible();
  expect(await io.innerText()).not.toContain('Render loop');
  await page.screenshot({ path: 'test-results/tracks-labels-narrow.png', clip: { x: 0, y: 40, width: 400, height: 400 } });
});

test('deep stacks: a row deeper than 24 levels opens to show every level, then folds again', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [deepStack(71)]);
  await waitForCaptures(page, 1);
  const tree = page.getByRole('tree', { name: 'Tracks' });
  const row = tree.getByRole('treeitem', { name: 'Push/Pop' });
  const open = row.getByRole('button', { name: 'Show all 71 levels of Push/Pop' });
  await expect(open).toHaveText('+48 levels');
  const folded = (await row.boundingBox())!.height;
  // The deepest range is folded into the last lane: not its own box.
  const deepest = await findRangeNamed(page, 'level 70');
  await open.click();
  await idle(page);
  const opened = (await row.boundingBox())!.height;
  expect(opened).toBeGreaterThan(folded + 40 * 18);
  // Every level is its own lane now: the deepest range is hit where it is drawn.
  await page.locator('.tl-scroller').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await idle(page);
  const at = await rangePoint(page, deepest.capture, deepest.index);
  expect(at).not.toBeNull();
  await page.mouse.click(at!.x, at!.y);
  await expect(page.getByTestId('range-details').getByTestId('detail-name')).toHaveText('level 70');
  await page.screenshot({ path: 'test-results/tracks-deep-open.png' });
  await row.getByRole('button', { name: 'Fold Push/Pop to 24 levels' }).click();
  await idle(page);
  expect((await row.boundingBox())!.height).toBeCloseTo(folded, 0);
});

async function findRangeNamed(page: Page, name: string): Promise<{ capture: number; index: number }> {
  return page.evaluate((wanted) => {
    const c = (window as unknown as HookedWindow).__nvtxview.store.getState().captures[0] as unknown as {
      id: number;
      model: { strings: string[]; styles: { name: Uint32Array }; ranges: { style: Uint32Array } };
    };
    const m = c.model;
    return { capture: c.id, index: Array.from(m.ranges.style).findIndex((s) => m.strings[m.styles.name[s]] === wanted) };
  }, name);
}

test.describe('several captures', () => {
  const state = (page: Page) =>
    page.evaluate(() => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
        viewStartNs: number;
        viewEndNs: number;
        captures: { id: number; offsetNs: number; model: { durationNs: number; capture: { fileName: string } } }[];
      };
      return {
        start: s.viewStartNs,
        end: s.viewEndNs,
        captures: s.captures.map((c) => ({ id: c.id, name: c.model.capture.fileName, offsetNs: c.offsetNs, end: c.offsetNs + c.model.durationNs })),
      };
    });

  test('the view fits every loaded capture; a capture is shifted by dragging its row, and the link keeps it', async ({ page }) => {
    await openApp(page);
    // The long capture is dropped first and the short one finishes first: the fit must still cover both.
    await dropFiles(page, [manyThreads(4, 20, 'long.nvtxt'), GOOD_NVTXT]);
    await waitForCaptures(page, 2);
    const fitted = await state(page);
    const end = Math.max(...fitted.captures.map((c) => c.end));
    expect(fitted.start).toBeLessThanOrEqual(Math.min(...fitted.captures.map((c) => c.offsetNs)));
    expect(fitted.end).toBeGreaterThanOrEqual(end);
    expect(fitted.end).toBeLessThan(end * 1.1);

    // Drag the render capture's header row 200 px to the right.
    const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
    const renderRow = page.getByRole('tree', { name: 'Tracks' }).getByRole('treeitem', { name: 'Render loop' });
    const rowBox = (await renderRow.boundingBox())!;
    const y = rowBox.y + rowBox.height / 2;
    const before = (await state(page)).captures.find((c) => c.name === 'render.nvtxt')!;
    const nsPerPx = (fitted.end - fitted.start) / canvas.width;
    await page.mouse.move(canvas.x + 300, y);
    await page.mouse.down();
    await page.mouse.move(canvas.x + 400, y, { steps: 3 });
    await page.mouse.move(canvas.x + 500, y, { steps: 3 });
    await page.mouse.up();
    const after = (await state(page)).captures.find((c) => c.name === 'render.nvtxt')!;
    expect(Math.abs(after.offsetNs - before.offsetNs - 200 * nsPerPx)).toBeLessThan(2 * nsPerPx);
    // The view did not pan: the drag moved the capture, not the window.
    expect((await state(page)).start).toBeCloseTo(fitted.start, 0);
    // Its row says where it now starts, and how to move it.
    await expect(renderRow).toContainText(/at \+\d/);
    await expect(renderRow).toHaveAttribute('title', /drag this row on the timeline/);
    await idle(page);
    await page.screenshot({ path: 'test-results/tracks-two-captures-shifted.png' });

    // The link keeps the placement: reopened with the same files, the capture is where it was put.
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('o=');
    const url = page.url();
    const relative = after.offsetNs - (await state(page)).captures.find((c) => c.name === 'long.nvtxt')!.offsetNs;
    const fresh = await page.context().newPage();
    await fresh.goto(url);
    await fresh.waitForFunction(() => (window as unknown as Partial<HookedWindow>).__nvtxview?.idle !== undefined);
    await dropFiles(fresh, [GOOD_NVTXT, manyThreads(4, 20, 'long.nvtxt')]);
    await waitForCaptures(fresh, 2);
    const reopened = await state(fresh);
    const r = reopened.captures.find((c) => c.name === 'render.nvtxt')!.offsetNs - reopened.captures.find((c) => c.name === 'long.nvtxt')!.offsetNs;
    expect(Math.abs(r - relative)).toBeLessThanOrEqual(1);
  });
});

test.describe('right-click menu and track list', () => {
  const rangeAt = (page: Page, name: string) =>
    findRangeNamed(page, name).then((r) =>
      rangePoint(page, r.capture, r.index),
    );
  const treeLabels = (page: Page) => page.getByRole('tree', { name: 'Tracks' }).getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

  test('on a range: zoom to it, copy its name, show it in the events table, hide its name', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openApp(page);
    await dropFiles(page, [GOOD_NVTXT]);
    await waitForCaptures(page, 1);
    const at = (await rangeAt(page, 'update'))!;
    await page.mouse.click(at.x, at.y, { button: 'right' });
    const menu = page.getByRole('menu', { name: 'update' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveText([
      'Zoom to rangeZ',
      'Copy name',
      'Show in events table',
      'Find this name',
      'Show only this name',
      'Hide this name',
      'Pin to top',
      'Move up',
      'Move down',
      'Hide track',
    ]);
    await page.screenshot({ path: 'test-results/tracks-menu-range.png' });
    await menu.getByRole('menuitem', { name: 'Zoom to range' }).click();
    await expect(menu).toHaveCount(0);
    await expect.poll(async () => page.evaluate(() => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
      return s.viewEndNs - s.viewStartNs;
    })).toBeLessThan(2e6 * 1.3);

    await idle(page);
    const again = (await rangeAt(page, 'update'))!;
    await page.mouse.click(again.x, again.y, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy name' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('update');

    await page.mouse.click(again.x, again.y, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Show in events table' }).click();
    await expect(page.getByTestId('events-panel')).toBeVisible();
    await expect(page.getByTestId('events-panel').locator('[aria-selected="true"]')).toContainText('update');

    await page.mouse.click(again.x, again.y, { button: 'right' });
    // Escape closes the menu and keeps the selection.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(page.getByTestId('range-details').getByTestId('detail-name')).toHaveText('update');
    // The keyboard opens the selected range's menu too.
    await page.keyboard.press('Shift+F10');
    await expect(page.getByRole('menu', { name: 'update' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Copy name' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await page.mouse.click(again.x, again.y, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Show only this name' }).click();
    await idle(page);
    // Only "update" is left, on the timeline and in the statistics.
    expect(await rangeAt(page, 'update')).not.toBeNull();
    expect(await rangeAt(page, 'frame')).toBeNull();
    await expect.poll(() => page.getByTestId('range-table').getByTestId('stats-row').allTextContents()).toHaveLength(1);
    await page.getByTestId('filter-button').click();
    await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: 'Show everything' }).click();
    await page.keyboard.press('Escape');
    await idle(page);
    expect(await rangeAt(page, 'frame')).not.toBeNull();
    await page.mouse.click(again.x, again.y, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Hide this name' }).click();
    await idle(page);
    expect(await rangeAt(page, 'update')).toBeNull();
    await expect(page.getByTestId('filter-button')).toContainText('1');
  });

  test('on rows: hide and show again, pin to top, move down, filter the tree by name', async ({ page }) => {
    await openApp(page);
    await dropFiles(page, [GOOD_NVTXT]);
    await waitForCaptures(page, 1);
    const tree = page.getByRole('tree', { name: 'Tracks' });
    const initial = await treeLabels(page);
    expect(initial).toEqual(['Render loop', 'renderer (1844)', 'main (4880)', 'Push/Pop', 'loader (4881)', 'Marks', 'NVTX', 'IO (2)']);

    await tree.getByRole('treeitem', { name: 'loader (4881)' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Hide group' }).click();
    await expect.poll(() => treeLabels(page)).toEqual(['Render loop', 'renderer (1844)', 'main (4880)', 'Push/Pop', 'NVTX', 'IO (2)']);
    await page.getByRole('button', { name: '1 hidden' }).click();
    await expect.poll(() => treeLabels(page)).toEqual(initial);

    await tree.getByRole('treeitem', { name: 'IO (2)' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Pin to top' }).click();
    // In the pinned band at the top; the NVTX group, left empty, leaves the tree.
    await expect.poll(() => treeLabels(page)).toEqual(['renderer (1844) › NVTX › IO (2)', 'Render loop', 'renderer (1844)', 'main (4880)', 'Push/Pop', 'loader (4881)', 'Marks']);
    // The pinned row still draws its ranges, now first.
    await idle(page);
    expect(await rangeAt(page, 'read assets')).not.toBeNull();
    await page.screenshot({ path: 'test-results/tracks-pinned.png' });
    await tree.getByRole('treeitem', { name: 'renderer (1844) › NVTX › IO (2)' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Unpin' }).click();
    await expect.poll(() => treeLabels(page)).toEqual(initial);

    await tree.getByRole('treeitem', { name: 'main (4880)' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move down' }).click();
    await expect.poll(() => treeLabels(page)).toEqual(['Render loop', 'renderer (1844)', 'loader (4881)', 'Marks', 'main (4880)', 'Push/Pop', 'NVTX', 'IO (2)']);

    await page.getByRole('searchbox', { name: 'Filter tracks by name' }).fill('load');
    await expect.poll(() => treeLabels(page)).toEqual(['Render loop', 'renderer (1844)', 'loader (4881)', 'Marks']);
    await page.getByRole('searchbox', { name: 'Filter tracks by name' }).press('Escape');
    await expect.poll(() => (treeLabels(page))).toHaveLength(8);
  });

  test('two captures: align the other capture on the N-th instance of a range', async ({ page }) => {
    await openApp(page);
    // b's ranges are 0.5 ms later than a's (no shared clock: both start at 0 on the axis).
    const shifted = (text: string) => text.replace(/(Range(?:Push|Pop)), (\d+)/g, (_, kind: string, t: string) => `${kind}, ${Number(t) + 500_000}`);
    await dropFiles(page, [manyThreads(1, 6, 'a.nvtxt'), { name: 'b.nvtxt', text: shifted(manyThreads(1, 6).text) }]);
    await waitForCaptures(page, 2);
    const third = await page.evaluate(() => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
        captures: { id: number; model: { ranges: { startNs: Float64Array } } }[];
      };
      const a = s.captures[0];
      // The third "work": ranges of a thread's level sit in time order.
      return { capture: a.id, index: 2 };
    });
    const at = await rangePoint(page, third.capture, third.index);
    await page.mouse.click(at!.x, at!.y, { button: 'right' });
    const align = page.getByRole('menuitem', { name: 'Align other captures on “work” #3' });
    await expect(align).toBeEnabled();
    await align.click();
    const starts = await page.evaluate(() => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
        captures: { offsetNs: number; model: { ranges: { startNs: Float64Array } } }[];
      };
      return s.captures.map((c) => c.model.ranges.startNs[2] + c.offsetNs);
    });
    expect(starts[1]).toBeCloseTo(starts[0], 0);
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('o=1_');
    // The capture row's menu puts it back.
    await page.getByRole('tree', { name: 'Tracks' }).getByRole('treeitem', { name: 'Many threads' }).nth(1).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Reset placement' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).not.toContain('o=');
  });
});

test('a counter row is resized by dragging its bottom edge in the tree; the menu resets it', async ({ page }) => {
  await openApp(page);
  const events = [
    { name: 'work', ph: 'X', ts: 0, dur: 10000, pid: 1, tid: 1 },
    { name: 'queue', ph: 'C', ts: 0, pid: 1, args: { value: 2 } },
    { name: 'queue', ph: 'C', ts: 2000, pid: 1, args: { value: 6 } },
    { name: 'queue', ph: 'C', ts: 6000, pid: 1, args: { value: 4 } },
  ];
  await dropFiles(page, [{ name: 'counters.json', text: JSON.stringify({ traceEvents: events }) }]);
  await waitForCaptures(page, 1);
  const tree = page.getByRole('tree', { name: 'Tracks' });
  const handle = tree.getByRole('separator', { name: /^Resize / });
  await expect(handle).toHaveCount(1);
  const row = tree.getByRole('treeitem').filter({ has: page.getByRole('separator', { name: /^Resize / }) });
  const before = (await row.boundingBox())!.height;
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 40, box.y + 40, { steps: 4 });
  await page.mouse.move(box.x + 40, box.y + 80, { steps: 4 });
  await page.mouse.up();
  await idle(page);
  await expect.poll(async () => (await row.boundingBox())!.height).toBeGreaterThan(before + 70);
  await page.screenshot({ path: 'test-results/tracks-counter-resized.png' });
  await row.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Reset row height' }).click();
  await expect.poll(async () => (await row.boundingBox())!.height).toBeCloseTo(before, 0);
});

test('the tooltip over a dense merged block says how many ranges are there', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [denseRanges(3000)]);
  await waitForCaptures(page, 1);
  // 0.45 ms is inside the block of tiny ranges (0 to 0.9 ms).
  const row = page.getByRole('tree', { name: 'Tracks' }).getByRole('treeitem', { name: 'Push/Pop' });
  const rowBox = (await row.boundingBox())!;
  const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  const s = await page.evaluate(() => {
    const st = (window as unknown as HookedWindow).__nvtxview.store.getState();
    return { start: st.viewStartNs, end: st.viewEndNs };
  });
  const x = canvas.x + ((450_000 - s.start) / (s.end - s.start)) * canvas.width;
  await page.mouse.move(x, rowBox.y + 10);
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText(/\d+ ranges here/);
  await expect(tooltip).toContainText('Nearest');
  const count = Number((await tooltip.innerText()).match(/(\d+) ranges here/)![1]);
  // About one pixel's worth: (view width / canvas width) / 300 ns per range.
  const perPixel = (s.end - s.start) / canvas.width / 300;
  expect(count).toBeGreaterThanOrEqual(Math.floor(perPixel) - 1);
  expect(count).toBeLessThanOrEqual(Math.ceil(perPixel) + 1);
  await page.screenshot({ path: 'test-results/tracks-dense-tooltip.png' });
});

test('flags: double-click the time axis or press M to drop one, annotate it, measure between two, keep them in the link', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, [GOOD_NVTXT]);
  await waitForCaptures(page, 1);
  const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  const flags = (p: Page) =>
    p.evaluate(() =>
      ((window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as { flags: { timeNs: number; note: string }[] }).flags.map((f) => ({
        timeNs: f.timeNs,
        note: f.note,
      })),
    );
  const view = await page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
    return { start: s.viewStartNs, end: s.viewEndNs };
  });
  const xOf = (t: number) => canvas.x + ((t - view.start) / (view.end - view.start)) * canvas.width;

  await page.mouse.dblclick(xOf(2e6), canvas.y + 20);
  const editor = page.getByRole('dialog', { name: /^Flag at/ });
  await expect(editor).toBeVisible();
  await editor.getByRole('textbox', { name: 'Note' }).fill('stall_1 starts');
  await page.keyboard.press('Enter');
  await expect(editor).toHaveCount(0);
  await page.mouse.move(xOf(6e6), canvas.y + 150);
  await page.keyboard.press('m');
  await expect.poll(() => flags(page).then((f) => f.length)).toBe(2);
  const [a, b] = await flags(page);
  const nsPerPx = (view.end - view.start) / canvas.width;
  expect(Math.abs(a.timeNs - 2e6)).toBeLessThan(2 * nsPerPx);
  expect(a.note).toBe('stall_1 starts');
  expect(Math.abs(b.timeNs - 6e6)).toBeLessThan(2 * nsPerPx);
  await idle(page);
  await page.screenshot({ path: 'test-results/tracks-flags.png' });

  // The link keeps them; a new page with it shows the same flags.
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toContain('f=');
  const fresh = await page.context().newPage();
  await fresh.goto(page.url());
  await fresh.waitForFunction(() => (window as unknown as Partial<HookedWindow>).__nvtxview?.idle !== undefined);
  await dropFiles(fresh, [GOOD_NVTXT]);
  await waitForCaptures(fresh, 1);
  await expect.poll(() => flags(fresh)).toEqual([
    { timeNs: Math.round(a.timeNs), note: a.note },
    { timeNs: Math.round(b.timeNs), note: '' },
  ]);
  await fresh.close();

  // Clicking a flag's head opens its note; Remove deletes it.
  await page.mouse.click(xOf(a.timeNs) + 3, canvas.y + 5);
  await expect(editor).toBeVisible();
  await expect(editor.getByRole('textbox', { name: 'Note' })).toHaveValue('stall_1 starts');
  await editor.getByRole('button', { name: 'Remove' }).click();
  await expect.poll(() => flags(page).then((f) => f.length)).toBe(1);
});

test('a CUDA capture (real Nsight export) shows its GPU rows first under the process', async ({ page }) => {
  await openApp(page);
  await page
    .getByTestId('open-input')
    .setInputFiles({ name: 'fuser-report1.sqlite', mimeType: 'application/vnd.sqlite3', buffer: readFileSync('../shared/fixtures/nsys/fuser-report1.sqlite') });
  await waitForCaptures(page, 1, 60_000);
  const rows = await page.getByRole('tree', { name: 'Tracks' }).getByRole('treeitem').evaluateAll((els) =>
    els.map((e) => ({ label: e.getAttribute('aria-label'), level: Number(e.getAttribute('aria-level')) })),
  );
  // Capture (level 1), process (level 2), then its first child: the CUDA group.
  expect(rows[1].level).toBe(2);
  expect(rows[2]).toEqual({ label: 'CUDA', level: 3 });
  await idle(page);
  await page.screenshot({ path: 'test-results/tracks-cuda-first.png' });
});
