/**
 * Issue 17 item 10: after zooming, filtering by category and thread and searching, opening the `?`
 * dialog blanked every range behind the modal. The flow is replayed three times on the demo; the
 * canvas must keep its ranges, both in its own pixels and in what the page shows (a screenshot
 * of the canvas strip beside the modal, under its dimmed backdrop).
 */
import { expect, test, type Page } from '@playwright/test';
import { idle, openApp, waitForCaptures } from './support.ts';

/** Pixels of the static canvas below the ruler that differ clearly from its background. */
async function canvasInk(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('.tl-canvas:not(.tl-overlay)')!;
    const ctx = canvas.getContext('2d')!;
    const top = Math.round(40 * devicePixelRatio);
    const data = ctx.getImageData(0, top, canvas.width, canvas.height - top).data;
    return inkOf(data);
    function inkOf(d: Uint8ClampedArray): number {
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 60) n++;
      return n;
    }
  });
}

/** The same count on a screenshot of the page region: what the compositor shows, not what the canvas holds. */
async function shownInk(page: Page, clip: { x: number; y: number; width: number; height: number }): Promise<number> {
  const png = (await page.screenshot({ clip })).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 40) n++;
    return n;
  }, png);
}

test('the ? dialog leaves the ranges behind it drawn after zoom, filters and search, round after round', async ({ page }) => {
  await openApp(page, '?demo');
  await waitForCaptures(page, 1);
  const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  await page.mouse.move(canvas.x + canvas.width / 3, canvas.y + 150);
  for (let i = 0; i < 5; i++) {
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
  }
  await idle(page);
  // The canvas strip left of the modal (the modal is centred, at most 640 px wide).
  const strip = { x: canvas.x + 2, y: canvas.y + 40, width: 60, height: canvas.height - 60 };
  for (let round = 0; round < 3; round++) {
    await page.getByTestId('filter-button').click();
    const menu = page.getByRole('dialog', { name: 'Filters' });
    await menu.getByRole('region', { name: 'Categories' }).getByRole('checkbox').nth(round).uncheck();
    await menu.getByRole('region', { name: 'Threads' }).getByRole('checkbox').nth(round + 1).uncheck();
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type(['step', 'batch', 'layer'][round]);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await idle(page);
    const canvasBefore = await canvasInk(page);
    const shownBefore = await shownInk(page, strip);

    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    await idle(page);
    await page.waitForTimeout(200);
    if (round === 2) await page.screenshot({ path: 'test-results/glitch-dialog.png' });
    expect(await canvasInk(page)).toBe(canvasBefore);
    // Under the backdrop the ranges are dimmed, not gone.
    expect(shownBefore).toBeGreaterThan(100);
    expect(await shownInk(page, strip)).toBeGreaterThan(shownBefore * 0.5);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await idle(page);
    expect(await canvasInk(page)).toBe(canvasBefore);
  }
});

test('a canvas given back blank by the browser (context restored) is drawn again', async ({ page }) => {
  await openApp(page, '?demo');
  await waitForCaptures(page, 1);
  const drawn = await canvasInk(page);
  expect(drawn).toBeGreaterThan(1000);
  // What a lost and restored 2D context looks like to the page: a blank canvas and the event.
  await page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('.tl-canvas:not(.tl-overlay)')!;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    canvas.dispatchEvent(new Event('contextrestored'));
  });
  await idle(page);
  await expect.poll(() => canvasInk(page)).toBe(drawn);
});
