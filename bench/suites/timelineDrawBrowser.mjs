#!/usr/bin/env node
/**
 * Drawing benchmark in Chromium: static-frame time (JavaScript and rasterising) over a scripted
 * zoom from the whole capture to 1 µs and a pan across it, on a generated capture. Prints figures.
 *   node scripts/run-ts.mjs bench/run.ts timeline-draw-browser [ranges=2000000] [threads=16] [reps=3] [width=1920] [height=1080] [dpr=1]
 * Uses CHROMIUM_PATH or /usr/bin/chromium; starts (and stops) its own Vite dev server.
 */
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

const [ranges = '2000000', threads = '16', reps = '3', width = '1920', height = '1080', dpr = '1'] = process.argv.slice(2);
const server = await createServer({ server: { port: 0, strictPort: false }, logLevel: 'error' });
await server.listen();
const address = server.httpServer.address();
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--headless', ...CHROMIUM_ARGS],
});
try {
  const page = await browser.newPage({ viewport: { width: +width, height: +height }, deviceScaleFactor: +dpr });
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  const query = new URLSearchParams({ ranges, threads, reps, width, height, dpr });
  await page.goto(`http://localhost:${address.port}/bench/pages/draw.html?${query}`);
  await page.waitForFunction(() => document.title === 'done', null, { timeout: 900_000 });
  const r = await page.evaluate(() => window.benchResult);
  console.log(`ranges ${r.ranges} on ${r.threads} threads (model built in the page in ${r.buildMs} ms), viewport ${r.viewport}`);
  console.log(`static frame, best of ${reps} per view, ${r.frames} views: p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms, max ${r.maxMs} ms`);
} finally {
  await browser.close();
  await server.close();
}
