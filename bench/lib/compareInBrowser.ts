/**
 * The Compare tab in Chromium (the built app): two captures picked through the file input (A
 * first), then a click on the Compare tab until the table has rows, a click on the largest row
 * until both sides' instances are read, and "Align" until both N-th instances are found. Measured
 * inside the page: click to result, the longest gap between animation frames and the longest main-
 * thread task (longtask API; 0 when none reached 50 ms) in between. Two ways to arrive: 'settled'
 * clicks once the statistics worker has no work left (the comparison halves prepared ahead of
 * time, useComparePrefetch), 'atOnce' clicks as soon as both loads end.
 */
import type { Browser, Page } from '@playwright/test';
import type { Served } from './chromiumApp.ts';
import { installProbes, longestTask, readProbes } from './pageProbes.ts';

export interface StepFigures {
  /** From the click (performance.now() before dispatching it) to the result in the page. */
  ms: number;
  longestFrameGapMs: number;
  longestTaskMs: number;
}

export interface CompareRun {
  /** Both loads, from the pick to the last capture in the store. */
  loadMs: number;
  /** After the loads, until the statistics worker was idle (models copied, halves prepared); 'settled' only. */
  prepareMs?: number;
  longestTaskWhilePreparingMs?: number;
  table: StepFigures;
  /** The table's summary line (e.g. "12 slower, 3 faster, 385 within noise"). */
  summary: string;
  detail: StepFigures;
  /** Instances of the row opened (A, B). */
  detailCounts: [number, number];
  align: StepFigures;
}

type Hooked = Window & {
  __nvtxview: { store: { getState(): { captures: { partial?: boolean }[]; loads: unknown[]; failed: { message: string }[] } }; statsPending?(): number };
  __frames: number[];
};

/**
 * Page scripts as source text: the TypeScript runner wraps named inner functions in a helper
 * (`__name`) that does not exist in the page (as in pageProbes.ts).
 */
const RECORD_FRAMES = `(() => {
  window.__frames = [];
  const tick = (t) => { window.__frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})()`;

/** Every animation frame's time from now on (a rAF loop), to find the longest gap in a window. */
async function recordFrames(page: Page): Promise<void> {
  await page.evaluate(RECORD_FRAMES);
}

/**
 * Clicks `selector` from inside the page and resolves when the expression `done` holds (polled
 * every 5 ms: a state may be reached without a DOM mutation); the click time and the time it held.
 */
async function timedClick(page: Page, selector: string, done: string, timeoutMs: number): Promise<{ from: number; to: number }> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return reject(new Error('no ' + ${JSON.stringify(selector)}));
    const from = performance.now();
    el.click();
    const poll = () => {
      if (${done}) return resolve({ from, to: performance.now() });
      if (performance.now() - from > ${timeoutMs}) return reject(new Error('timed out: ' + ${JSON.stringify(done)}));
      setTimeout(poll, 5);
    };
    poll();
  })`);
}

async function step(page: Page, span: { from: number; to: number }): Promise<StepFigures> {
  const frames = await page.evaluate(() => (window as unknown as Hooked).__frames);
  let gap = 0;
  let last = span.from;
  for (const t of frames) {
    if (t < span.from) continue;
    if (t > span.to) break;
    gap = Math.max(gap, t - last);
    last = t;
  }
  gap = Math.max(gap, span.to - last);
  const probes = await readProbes(page);
  return { ms: Math.round(span.to - span.from), longestFrameGapMs: Math.round(gap), longestTaskMs: Math.round(longestTask(probes, span.from, span.to)) };
}

export async function compareInBrowser(browser: Browser, app: Served, files: [string, string], settle: boolean, timeoutMs = 600_000): Promise<CompareRun> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const page = await context.newPage();
  try {
    await installProbes(page);
    await page.goto(app.url);
    await page.waitForFunction(() => (window as unknown as Partial<Hooked>).__nvtxview?.store !== undefined);
    await recordFrames(page);
    const picked = await page.evaluate(() => performance.now());
    await page.getByTestId('open-input').setInputFiles(files);
    await page.waitForFunction(
      () => {
        const s = (window as unknown as Hooked).__nvtxview.store.getState();
        return (s.captures.length === 2 && s.loads.length === 0 && !s.captures.some((c) => c.partial)) || s.failed.length > 0;
      },
      null,
      { timeout: timeoutMs, polling: 20 },
    );
    const failed = await page.evaluate(() => (window as unknown as Hooked).__nvtxview.store.getState().failed.map((f) => f.message));
    if (failed.length > 0) throw new Error(`could not load: ${failed.join('; ')}`);
    const loaded = await page.evaluate(() => performance.now());
    const run: Partial<CompareRun> = { loadMs: Math.round(loaded - picked) };
    if (settle) {
      await page.waitForFunction(() => ((window as unknown as Hooked).__nvtxview.statsPending?.() ?? 0) === 0, null, { timeout: timeoutMs, polling: 20 });
      const prepared = await page.evaluate(() => performance.now());
      run.prepareMs = Math.round(prepared - loaded);
      run.longestTaskWhilePreparingMs = Math.round(longestTask(await readProbes(page), loaded, prepared));
    }
    const rowsShown = `document.querySelectorAll('[data-testid="compare-row"]').length > 0`;
    run.table = await step(page, await timedClick(page, '#tab-compare', rowsShown, timeoutMs));
    run.summary = (await page.getByTestId('compare-summary').textContent()) ?? '';
    // The largest group first (Total A, largest first), then open it.
    await page.getByTestId('compare-table').getByRole('columnheader', { name: 'Total A' }).click();
    const detailRead = `document.querySelector('[data-testid="compare-detail"]') !== null && document.querySelector('[data-testid="compare-detail-loading"]') === null`;
    run.detail = await step(page, await timedClick(page, '[data-testid="compare-row"]', detailRead, timeoutMs));
    const count = async (side: 'A' | 'B') => Number(/([\d,]+) instances/.exec((await page.getByTestId(`compare-side-${side}`).textContent()) ?? '')?.[1].replace(/,/g, '') ?? 0);
    run.detailCounts = [await count('A'), await count('B')];
    const aligned = `/instance 1 of both|fewer than/.test(document.querySelector('[data-testid="compare-align-note"]')?.textContent ?? '')`;
    run.align = await step(page, await timedClick(page, '[data-testid="compare-align"]', aligned, timeoutMs));
    return run as CompareRun;
  } finally {
    await context.close();
  }
}
