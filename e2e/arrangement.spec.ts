/**
 * Issue 17: the arrangement of the track list. Pinned, hidden and reordered rows are kept in the
 * link and restored from it; pinned rows stay in a band at the top while the other rows scroll
 * under it (as in Perfetto). Screenshots in test-results/arrangement-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';

const tree = (page: Page) => page.getByRole('tree', { name: 'Tracks' });
const treeLabels = (page: Page) => tree(page).getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
const arrangement = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as HookedWindow).__nvtxview.store.getState() as unknown as {
      tracks: { pinned: string[]; hidden: Record<string, true>; order: Record<string, string[]>; heights: Record<string, number> };
      captures: { id: number }[];
    };
    // Keys without the capture id, which differs between pages.
    const strip = (k: string) => k.slice(k.indexOf('/') + 1);
    return {
      pinned: s.tracks.pinned.map(strip),
      hidden: Object.keys(s.tracks.hidden).map(strip).sort(),
      order: Object.entries(s.tracks.order).map(([p, c]) => [strip(p), c.map(strip)]),
      heights: Object.entries(s.tracks.heights).map(([k, h]) => [strip(k), h]),
    };
  });
const scrollTop = (page: Page) => page.locator('.tl-scroller').evaluate((el) => el.scrollTop);

async function rowMenu(page: Page, label: string, item: string): Promise<void> {
  await tree(page).getByRole('treeitem', { name: label, exact: true }).first().click({ button: 'right' });
  await page.getByRole('menuitem', { name: item }).click();
}

test('pinned, hidden and reordered rows and a row height are kept in the link, and a new page opened with it shows the same tracks', async ({ page, context }) => {
  await openApp(page, '?demo');
  await waitForCaptures(page, 1);
  await rowMenu(page, 'GPU memory in use', 'Pin to top');
  await rowMenu(page, 'loss', 'Pin to top');
  await rowMenu(page, 'data loader 1 (4252)', 'Hide group');
  await rowMenu(page, 'data loader 2 (4253)', 'Move up');
  await expect.poll(() => treeLabels(page)).toContain('train.py (4242) › main (4242) › Counters › loss');
  // A counter row made taller by dragging its bottom edge.
  const learningRate = tree(page).getByRole('treeitem', { name: 'learning rate', exact: true });
  const handle = learningRate.getByRole('separator', { name: /^Resize / });
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 40, box.y + 30, { steps: 4 });
  await page.mouse.up();
  await idle(page);
  const labels = await treeLabels(page);
  const arranged = await arrangement(page);
  expect(arranged.pinned).toEqual(['train.py (4242)/main (4242)/Counters/GPU memory in use', 'train.py (4242)/main (4242)/Counters/loss']);
  expect(arranged.hidden).toEqual(['train.py (4242)/data loader 1 (4252)']);
  expect(arranged.heights).toHaveLength(1);
  // The two pinned rows first, then the capture; loader 2 above loader 0; loader 1 gone.
  expect(labels.slice(0, 3)).toEqual(['train.py (4242) › main (4242) › Counters › GPU memory in use', 'train.py (4242) › main (4242) › Counters › loss', 'train.py']);
  expect(labels).not.toContain('data loader 1 (4252)');
  expect(labels.indexOf('data loader 2 (4253)')).toBeLessThan(labels.indexOf('data loader 0 (4251)'));
  await page.screenshot({ path: 'test-results/arrangement-before-link.png' });

  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toMatch(/pin=.*hide=.*ord=.*rh=/);
  const link = page.url();
  const fresh = await context.newPage();
  await fresh.goto(link);
  await fresh.waitForFunction(() => (window as unknown as Partial<HookedWindow>).__nvtxview?.idle !== undefined);
  await waitForCaptures(fresh, 1);
  await expect.poll(() => treeLabels(fresh)).toEqual(labels);
  expect(await arrangement(fresh)).toEqual(arranged);
  await idle(fresh);
  await fresh.screenshot({ path: 'test-results/arrangement-from-link.png' });
  // Back on the first page undoes the last arrangement step (the move), then the hide.
  await page.goBack();
  await expect.poll(() => treeLabels(page).then((l) => l.indexOf('data loader 2 (4253)') > l.indexOf('data loader 0 (4251)'))).toBe(true);
  await fresh.close();
});

test('pinned rows stay at the top while the track list scrolls under them; screenshot check of the band', async ({ page }) => {
  await openApp(page, '?demo');
  await waitForCaptures(page, 1);
  await rowMenu(page, 'GPU memory in use', 'Pin to top');
  await rowMenu(page, 'Push/Pop', 'Pin to top');
  const band = page.getByTestId('pinned-band');
  await expect(band.getByRole('treeitem')).toHaveCount(2);
  await page.mouse.move(5, 5);
  await idle(page);
  const bandBox = (await band.boundingBox())!;
  const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  // The band across the tree and the canvas.
  const clip = { x: bandBox.x, y: bandBox.y, width: canvas.x + canvas.width - bandBox.x, height: bandBox.height - 2 };
  const before = await page.screenshot({ clip });
  await page.screenshot({ path: 'test-results/arrangement-pinned-top.png' });

  // Scroll the track list with the wheel over the rows below the band.
  await page.mouse.move(canvas.x + canvas.width / 2, bandBox.y + bandBox.height + 100);
  await page.mouse.wheel(0, 2000);
  await expect.poll(() => scrollTop(page)).toBeGreaterThan(200);
  await page.mouse.move(5, 5);
  await idle(page);
  await page.screenshot({ path: 'test-results/arrangement-pinned-scrolled.png' });
  // The band did not move, and shows exactly what it showed.
  expect((await band.boundingBox())!.y).toBeCloseTo(bandBox.y, 0);
  const after = await page.screenshot({ clip });
  expect(after.equals(before)).toBe(true);
  // The rows below it scrolled: the capture's own row went under the band, and the last rows are in view.
  const captureRow = tree(page).getByRole('treeitem', { name: 'train.py', exact: true });
  if ((await captureRow.count()) > 0) expect((await captureRow.boundingBox())!.y).toBeLessThan(bandBox.y + bandBox.height);
  const last = tree(page).getByRole('treeitem').last();
  await expect(last).toBeInViewport();
  expect((await last.boundingBox())!.y).toBeGreaterThanOrEqual(bandBox.y + bandBox.height - 1);
  // What is hit under the band's rows is the pinned track, not a row scrolled under it.
  const hit = await page.evaluate(
    ({ x, y }) => {
      const el = document.elementFromPoint(x, y);
      return el?.closest('[role=treeitem]')?.getAttribute('aria-label') ?? null;
    },
    { x: bandBox.x + 30, y: bandBox.y + 10 },
  );
  expect(hit).toBe('train.py (4242) › main (4242) › Counters › GPU memory in use');
});
