/**
 * Issue 17 item 10: after zooming, filtering by category and thread and searching, opening the `?`
 * dialog blanked every range behind the modal. The flow is replayed three times on the demo; the
 * canvas must keep its ranges, both in its own pixels and in what the page shows (a screenshot
 * of the canvas strip beside the modal, under its dimmed backdrop). Then again in the settings the
 * report could have come from: several captures, a large capture, a device pixel ratio of 2, and
 * the window resized while the dialog is open.
 */
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, GOOD_NVTXT, idle, openApp, waitForCaptures, type TextFile } from './support.ts';

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

/**
 * How much of a colour difference survives the modal's backdrop (`.modal-backdrop`: black at 35%):
 * counting dimmed pixels at the undimmed threshold would drop about half of them, by chance either side.
 */
const UNDER_BACKDROP = 0.65;

/** The same count on a screenshot of the page region: what the compositor shows, not what the canvas holds. */
async function shownInk(page: Page, clip: { x: number; y: number; width: number; height: number }, contrast = 1): Promise<number> {
  const png = (await page.screenshot({ clip })).toString('base64');
  return page.evaluate(async ([b64, threshold]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > threshold) n++;
    return n;
  }, [png, 40 * contrast] as const);
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
    const shownDuring = await shownInk(page, strip, UNDER_BACKDROP);
    expect(shownDuring).toBeGreaterThan(shownBefore * 0.8);
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

/** A capture of `steps` × `opsPerStep` ranges per thread on 8 threads, steps in 5 named categories: ~100k ranges. */
function bigCapture(steps = 1250, opsPerStep = 9): TextFile {
  const lines = ['SetFileDisplayName, "Big"', 'NameProcess, 11, trainer'];
  const categories = ['Compute', 'Data', 'Storage', 'Network', 'Checkpoint'];
  categories.forEach((name, k) => lines.push(`NameCategory, ${k + 1}, ${name}`));
  for (let t = 0; t < 8; t++) {
    const tid = 700 + t;
    lines.push(`NameOsThread, 11, ${tid}, worker${t}`);
    for (let k = 0; k < steps; k++) {
      const start = k * 10_000 + t * 100;
      lines.push(`RangePush, ${start}, ns, 11, ${tid}, ${(k % 5) + 1}, SteelBlue, "step ${k % 50}", 0`);
      for (let j = 0; j < opsPerStep; j++) {
        lines.push(`RangePush, ${start + 50 + j * 1000}, ns, 11, ${tid}, ${(k % 5) + 1}, Orange, "layer ${j}", 0`);
        lines.push(`RangePop, ${start + 50 + j * 1000 + 800}, ns, 11, ${tid}`);
      }
      lines.push(`RangePop, ${start + 9_500}, ns, 11, ${tid}`);
    }
  }
  return { name: 'big.nvtxt', text: lines.join('\n') + '\n' };
}

/**
 * The reported flow once: zoom in at a third of the canvas, hide a category and a thread, search,
 * open `?`; the canvas keeps its pixels behind the modal and after it closes. `resize` changes the
 * window size while the dialog is open (the canvas is then drawn again at the new size).
 */
async function replayFlow(page: Page, options: { search: string; resize?: { width: number; height: number }; shot?: string }): Promise<void> {
  const canvas = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  await page.mouse.move(canvas.x + canvas.width / 3, canvas.y + 150);
  for (let i = 0; i < 3; i++) {
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
  }
  await page.getByTestId('filter-button').click();
  const menu = page.getByRole('dialog', { name: 'Filters' });
  await menu.getByRole('region', { name: 'Categories' }).getByRole('checkbox').first().uncheck();
  await menu.getByRole('region', { name: 'Threads' }).getByRole('checkbox').nth(1).uncheck();
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await page.keyboard.type(options.search);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.mouse.move(2, 2);
  await idle(page);
  const strip = { x: canvas.x + 2, y: canvas.y + 40, width: 60, height: Math.min(canvas.height, 500) - 60 };
  const canvasBefore = await canvasInk(page);
  const shownBefore = await shownInk(page, strip);
  expect(canvasBefore, 'ranges drawn before the dialog').toBeGreaterThan(1000);
  expect(shownBefore).toBeGreaterThan(100);

  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  if (options.resize) await page.setViewportSize(options.resize);
  await idle(page);
  await page.waitForTimeout(200);
  if (options.shot) await page.screenshot({ path: `test-results/glitch-${options.shot}.png` });
  const canvasDuring = await canvasInk(page);
  if (options.resize) {
    // In a narrower window the modal may cover the strip itself: the canvas's own pixels tell.
    expect(canvasDuring, 'drawn again at the new size').toBeGreaterThan(canvasBefore * 0.3);
  } else {
    expect(canvasDuring).toBe(canvasBefore);
    expect(await shownInk(page, strip, UNDER_BACKDROP), 'ranges dimmed behind the modal, not gone').toBeGreaterThan(shownBefore * 0.8);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await idle(page);
  expect(await canvasInk(page)).toBe(canvasDuring);
  const after = (await page.getByRole('img', { name: 'Timeline' }).boundingBox())!;
  expect(await shownInk(page, { ...strip, x: after.x + 2, height: Math.min(after.height, 500) - 60 }), 'shown after the dialog').toBeGreaterThan(100);
}

test.describe('the same flow where the report may have come from', () => {
  test('several captures', async ({ page }) => {
    await openApp(page, '?demo');
    await waitForCaptures(page, 1);
    await dropFiles(page, [GOOD_NVTXT, bigCapture(200, 4)]);
    await waitForCaptures(page, 3);
    await replayFlow(page, { search: 'step', shot: 'several' });
  });

  test('a large capture (~100k ranges)', async ({ page }) => {
    test.setTimeout(120_000);
    await openApp(page);
    await dropFiles(page, [bigCapture()]);
    await waitForCaptures(page, 1, 60_000);
    await replayFlow(page, { search: 'layer', shot: 'large' });
    // Again, with `?` pressed at once after the search: while the new filters' first draw is
    // still being spread over frames.
    await page.getByTestId('filter-button').click();
    await page.getByRole('dialog', { name: 'Filters' }).getByRole('region', { name: 'Categories' }).getByRole('checkbox').nth(2).uncheck();
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type('step 1');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await idle(page);
    const during = await canvasInk(page);
    expect(during).toBeGreaterThan(1000);
    await page.keyboard.press('Escape');
    await idle(page);
    expect(await canvasInk(page)).toBe(during);
  });

  test.describe('device pixel ratio 2', () => {
    test.use({ deviceScaleFactor: 2 });
    test('demo', async ({ page }) => {
      await openApp(page, '?demo');
      await waitForCaptures(page, 1);
      expect(await page.evaluate(() => devicePixelRatio)).toBe(2);
      await replayFlow(page, { search: 'batch', shot: 'dpr2' });
    });
  });

  test('the window resized while the dialog is open', async ({ page }) => {
    await openApp(page, '?demo');
    await waitForCaptures(page, 1);
    await replayFlow(page, { search: 'layer', resize: { width: 1024, height: 700 }, shot: 'resized' });
    await replayFlow(page, { search: 'conv', resize: { width: 1400, height: 850 } });
  });
});
