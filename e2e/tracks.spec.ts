/**
 * The timeline as Nsight Systems and Perfetto users' hands expect it (issue 17): the wheel, track
 * labels, deep stacks, several captures, the context menu. Screenshots go to test-results/tracks-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';
import { manyThreads } from './timelineFiles.ts';

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
