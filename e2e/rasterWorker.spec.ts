/**
 * The canvases rastered in a worker (`?raster=worker`, src/timeline/raster/): the static canvas
 * holds the same pixels as when the page draws it, at several views, with a selection and the
 * pointer over the rows; a screenshot of each build goes to test-results/raster-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { idle, openApp, waitForCaptures, type HookedWindow } from './support.ts';

type RasterWindow = HookedWindow & {
  __nvtxview: { timeline: { staticPixels(): Promise<Uint8ClampedArray> }; store: { getState(): { setView(a: number, b: number): void } } };
};

/** A hash of the static canvas's pixels at a view (a fraction of the capture around its middle). */
async function pixelHashAt(page: Page, fraction: number): Promise<string> {
  return page.evaluate(async (f) => {
    const hooks = (window as unknown as RasterWindow).__nvtxview;
    const s = hooks.store.getState() as unknown as { captures: { model: { durationNs: number } }[]; setView(a: number, b: number): void };
    const d = s.captures[0].model.durationNs;
    s.setView(d * (0.5 - f / 2), d * (0.5 + f / 2));
    const data = await hooks.timeline.staticPixels();
    let h = 0x811c9dc5;
    for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 0x01000193);
    return `${data.length}:${(h >>> 0).toString(16)}`;
  }, fraction);
}

async function openDemo(page: Page, query: string): Promise<void> {
  await openApp(page, query);
  await waitForCaptures(page, 1);
  await idle(page);
}

test('a worker rasters the canvases to the same pixels as the page', async ({ browser }) => {
  const pages: Page[] = [];
  for (const query of ['?demo', '?demo&raster=worker']) {
    const page = await browser.newPage();
    await openDemo(page, query);
    pages.push(page);
  }
  // The worker's page really handed its canvas over: the element gives no context any more.
  const transferred = (p: Page) =>
    p.evaluate(() => {
      try {
        document.querySelector<HTMLCanvasElement>('canvas.tl-canvas:not(.tl-overlay)')!.getContext('2d');
        return false;
      } catch {
        return true;
      }
    });
  expect(await transferred(pages[0])).toBe(false);
  expect(await transferred(pages[1])).toBe(true);
  for (const fraction of [1, 0.2, 0.01, 0.0005]) {
    const [a, b] = await Promise.all(pages.map((p) => pixelHashAt(p, fraction)));
    expect(b, `view ${fraction} of the capture`).toBe(a);
    expect(a.startsWith('0:')).toBe(false);
  }
  // Selection and hover are drawn on the overlay, which the worker also owns: the page shows them.
  for (const [i, page] of pages.entries()) {
    await page.evaluate(() => {
      const s = (window as unknown as HookedWindow).__nvtxview.store.getState();
      s.select({ kind: 'range', capture: s.captures[0].id, index: 0 });
    });
    const canvas = page.locator('canvas.tl-overlay');
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 120);
    await idle(page);
    await page.screenshot({ path: `test-results/raster-${i === 0 ? 'page' : 'worker'}.png` });
  }
  const shots = await Promise.all(pages.map((p) => p.locator('canvas.tl-overlay').screenshot()));
  expect(shots[1].equals(shots[0])).toBe(true);
  for (const p of pages) await p.close();
});
