#!/usr/bin/env node
/**
 * Statistics benchmark in Chromium: the panel's requests on the page and through the statistics
 * worker (model copy, round trips, frame gaps), on a generated capture. Prints figures.
 *   node scripts/run-ts.mjs bench/run.ts stats-browser [ranges=1000000] [threads=16] [reps=3]
 * Uses CHROMIUM_PATH or /usr/bin/chromium; starts (and stops) its own Vite dev server.
 */
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

const [ranges = '1000000', threads = '16', reps = '3'] = process.argv.slice(2);
const server = await createServer({ server: { port: 0, strictPort: false }, logLevel: 'error' });
await server.listen();
const address = server.httpServer.address();
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--headless', ...CHROMIUM_ARGS],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(`http://localhost:${address.port}/bench/pages/stats.html?${new URLSearchParams({ ranges, threads, reps })}`);
  await page.waitForFunction(() => document.title === 'done', null, { timeout: 900_000 });
  const r = await page.evaluate(() => window.benchResult);
  console.log(`${r.ranges} ranges on ${r.threads} threads (model built in the page in ${r.buildMs} ms); median of ${reps}`);
  console.log('on the page (ms):');
  for (const [label, ms] of Object.entries(r.page)) console.log(`  ${label.padEnd(28)} ${ms}`);
  const f = r.firstWorkerRun;
  console.log(`worker copy: ${(r.workerCopyBytes / 1e6).toFixed(1)} MB; first run (copy + compute): ${f.roundTripMs} ms, compute ${f.computeMs} ms, longest frame gap on the page ${f.frameGapMs} ms`);
  console.log('through the worker (ms): round trip / compute / longest frame gap on the page');
  for (const [label, w] of Object.entries(r.worker)) console.log(`  ${label.padEnd(28)} ${w.roundTripMs} / ${w.computeMs} / ${w.frameGapMs}`);
} finally {
  await browser.close();
  await server.close();
}
