/**
 * `npm run bench:browser`: figures from headless Chromium (Playwright, Debian's /usr/bin/chromium)
 * against a production build of the app served locally. Not pass/fail.
 *
 *  native10M   a generated native capture (default 10M ranges + marks, 16 threads) picked through
 *              the app's file input: drop-to-first-draw (first timeline frame holding the capture)
 *              and drop-to-loaded-draw (first frame after the load finished; the same unless the
 *              worker posts partial models), the longest main-thread task meanwhile (longtask API:
 *              0 means none reached 50 ms), JS memory after GC (heap + array buffers), model bytes
 *              per range, and frame times during a scripted zoom from the whole capture to 1 µs and
 *              a pan across it (bench/lib/frames.ts). `wholeCaptureMs` is drop-to-loaded-draw: the
 *              whole capture on screen (issue 15 §3).
 *  chromeJson  a generated Chrome trace JSON (default 1M events, 8 threads, nested, 200 names): the
 *              same load figures for nvtxview (first render: the partial model of the file's start
 *              when the file is big enough to get one, src/worker/preview.ts; complete render: the whole model), then speedscope (its built app from node_modules)
 *              on the same file in the same browser: first render of its flame chart, memory; the
 *              ratio speedupVsSpeedscope, against nvtxview's complete render.
 *  nsysLarge   a generated Nsight Systems export (testkit/gen/nsysLarge.ts; python3 writes it) of
 *              --nsys-bytes: load time, the load worker's peak memory (bench/lib/workerMemory.ts),
 *              the model's bytes and workerExtraMB, the worker's peak beyond the model.
 *  largest     a Chrome JSON trace and a native capture of --largest-bytes (--largest-events events
 *              spread over whitespace / skipped chunks): load time, worker peak, model, page memory;
 *              largest.chromeJsonBytes and largest.nativeBytes are the file sizes opened.
 *
 * Each nvtxview figure is the median over --runs fresh pages; speedscope runs once (it takes minutes
 * at 1M events). Options:
 *   --events N          native events (default 10000000)      --chrome-events N (default 1000000)
 *   --runs N            nvtxview runs per capture (default 3)  --no-speedscope
 *   --only native|chrome                                        --speedscope-timeout S (default 900)
 *   --dist DIR          use this build instead of building one  --cache DIR (keep/reuse generated files)
 *   --json              one JSON object instead of the table
 *   --query Q           appended to the app's URL for nvtxview's loads, e.g. '?tape=never' (one build, A/B)
 *   --pick-after-ms N   wait N ms after the app is ready before picking the file (default 0: at once),
 *                       as a user who opens the page and then a file: spare workers warm up meanwhile
 *   --only LIST         cases to run, comma-separated: native,chrome,nsys,largest (default: all)
 *   --nsys-ranges N     NVTX ranges of the nsysLarge export (default 1000000; + N/4 calls, N/4 kernels)
 *   --nsys-bytes B      its size: a table nvtxview never reads is written first (default 512000000; 4.3e9: past 4 GiB)
 *   --largest-events N  events of the largest Chrome JSON and native files (default 1000000)
 *   --largest-bytes B   their size, padded with what readers skip (default 512000000)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { buildApp, chromiumVersion, launchChromium, serve, SPEEDSCOPE_DIR, type Served } from '../lib/chromiumApp.ts';
import { median, percentile, runViews, scriptedViews, type FrameSample } from '../lib/frames.ts';
import { installProbes, longestTask, longTasks, pageMemory, readProbes } from '../lib/pageProbes.ts';
import { generateFile } from '../../testkit/gen/main.ts';
import { writeLargeNsysExport, type LargeNsysExport } from '../../testkit/gen/nsysLarge.ts';
import { WorkerMemorySampler } from '../lib/workerMemory.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    'chrome-events': { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '3' },
    'no-speedscope': { type: 'boolean', default: false },
    only: { type: 'string' },
    'speedscope-timeout': { type: 'string', default: '900' },
    dist: { type: 'string' },
    cache: { type: 'string' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    query: { type: 'string', default: '' },
    'pick-after-ms': { type: 'string', default: '0' },
    'nsys-ranges': { type: 'string', default: '1000000' },
    'nsys-bytes': { type: 'string', default: '512000000' },
    'largest-events': { type: 'string', default: '1000000' },
    'largest-bytes': { type: 'string', default: '512000000' },
  },
});
/** Cases to run (`--only a,b`): the default runs all of them. */
const cases = new Set((values.only ?? 'native,chrome,nsys,largest').split(','));
const nativeEvents = Number(values.events);
const chromeEvents = Number(values['chrome-events']);
const runs = Math.max(1, Number(values.runs));
const seed = Number(values.seed);
const log = (line: string) => {
  if (!values.json) process.stderr.write(line + '\n');
};
const VIEWPORT = { width: 1600, height: 900 };
/** Loads slower than this are given up (a 10M capture on a loaded machine takes well under it). */
const LOAD_TIMEOUT_MS = 600_000;

const round = (x: number, digits = 0) => Number(x.toFixed(digits));
const mb = (bytes: number) => round(bytes / 1e6, 1);

/** A generated capture, reused from the cache folder when one is given. */
async function capture(dir: string, format: string, events: number, ext: string): Promise<string> {
  const path = join(dir, `${format}-${events}-seed${seed}.${ext}`);
  if (existsSync(path) && statSync(path).size > 0) return path;
  const t0 = performance.now();
  const written = await generateFile(path, format, { events, seed });
  log(`generated ${path}: ${written.events} events, ${mb(written.bytes)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return path;
}

interface LoadFigures {
  dropToFirstDrawMs: number;
  dropToLoadedDrawMs: number;
  /** The load worker's own time for the whole model (its 'done' message), from its start. */
  workerDecodeMs: number;
  /** How long the whole-file worker was held while the page took a partial model in (0 without one; the page's `loadHolds`). */
  wholeHoldMs: number;
  longestTaskMs: number;
  heapBytes: number;
  arrayBufferBytes: number;
  ranges: number;
  marks: number;
  bytesPerRange: number;
}

/** Opens nvtxview in a fresh page and picks `path` through its file input; waits for the loaded frame. */
async function nvtxviewLoad(
  browser: Browser,
  app: Served,
  path: string,
  sampleWorker = false,
): Promise<{ figures: LoadFigures; longTasksMs: number[]; worker?: WorkerFigures; page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await installProbes(page);
  const sampler = sampleWorker ? await WorkerMemorySampler.start(cdp) : undefined;
  await page.goto(app.url + values.query);
  await page.waitForFunction(() => (window as unknown as { __nvtxview?: { idle?: unknown } }).__nvtxview?.idle !== undefined);
  const pickAfterMs = Number(values['pick-after-ms']);
  if (pickAfterMs > 0) await page.waitForTimeout(pickAfterMs);
  await page.getByTestId('open-input').setInputFiles(path);
  await page.waitForFunction(
    () => {
      const b = (window as unknown as { __bench: { loadedDrawAt: number | null } }).__bench;
      const s = (window as unknown as { __nvtxview: { store: { getState(): { failed: unknown[] } } } }).__nvtxview.store.getState();
      return b.loadedDrawAt !== null || s.failed.length > 0;
    },
    null,
    { timeout: LOAD_TIMEOUT_MS, polling: 100 },
  );
  const failed = await page.evaluate(() =>
    (window as unknown as { __nvtxview: { store: { getState(): { failed: { message: string }[] } } } }).__nvtxview.store.getState().failed.map((f) => f.message),
  );
  const peak = sampler?.stop();
  if (failed.length > 0) throw new Error(`nvtxview could not load ${path}: ${failed.join('; ')}`);
  const probes = await readProbes(page);
  const picked = probes.pickedAt!;
  const model = await page.evaluate(() => {
    interface M {
      ranges: Record<string, ArrayBufferView>;
      marks: { timeNs: Float64Array };
      rangeLod?: Record<string, ArrayBufferView>;
    }
    const capture = (window as unknown as { __nvtxview: { store: { getState(): { captures: { model: M; decodeMs: number }[] } } } }).__nvtxview.store.getState().captures[0];
    const m = capture.model;
    let bytes = 0;
    for (const column of Object.values(m.ranges)) bytes += column.byteLength;
    // Summaries, without the start column they point back to.
    for (const [key, column] of Object.entries(m.rangeLod ?? {})) if (key !== 'startNs' && ArrayBuffer.isView(column)) bytes += column.byteLength;
    return { ranges: m.ranges.startNs.byteLength / 8, marks: m.marks.timeNs.length, rangeBytes: bytes, decodeMs: capture.decodeMs };
  });
  const holdMs = await page.evaluate(() =>
    ((window as unknown as { __nvtxview: { loadHolds?: { holdMs: number }[] } }).__nvtxview.loadHolds ?? []).reduce((sum, h) => sum + h.holdMs, 0),
  );
  const memory = await pageMemory(cdp);
  const figures: LoadFigures = {
    dropToFirstDrawMs: round(probes.firstDrawAt! - picked),
    dropToLoadedDrawMs: round(probes.loadedDrawAt! - picked),
    workerDecodeMs: round(model.decodeMs),
    wholeHoldMs: round(holdMs),
    longestTaskMs: round(longestTask(probes, picked, probes.loadedDrawAt! + 1000)),
    heapBytes: memory.heapBytes,
    arrayBufferBytes: memory.arrayBufferBytes,
    ranges: model.ranges,
    marks: model.marks,
    bytesPerRange: round(model.rangeBytes / model.ranges, 1),
  };
  const longTasksMs = longTasks(probes, picked, probes.loadedDrawAt! + 1000).map((ms) => round(ms));
  let worker: WorkerFigures | undefined;
  if (peak) {
    const held = await page.evaluate(modelHeldBytes);
    worker = {
      workerPeakMB: mb(peak.peakBytes),
      workerPeakHeapMB: mb(peak.heapBytes),
      workerPeakBuffersMB: mb(peak.backingBytes),
      workerSamples: peak.samples,
      modelMB: mb(held.bytes),
      workerExtraMB: mb(peak.peakBytes - held.bytes),
      loadIssues: held.issues,
    };
  }
  return { figures, longTasksMs, worker, page, close: () => context.close() };
}

/** The load worker's memory during a load (bench/lib/workerMemory.ts) against the model it made. */
interface WorkerFigures {
  /** Largest V8 heap + array buffer / WebAssembly backing stores of the load worker over the load. */
  workerPeakMB: number;
  workerPeakHeapMB: number;
  workerPeakBuffersMB: number;
  workerSamples: number;
  /** The model the page holds: every typed array it reaches, strings at 16 bytes + 1 per character. */
  modelMB: number;
  /** workerPeakMB - modelMB: what reading the file and building the model took beyond the model. */
  workerExtraMB: number;
  /** Errors and warnings of the load report (a partial model says so here). */
  loadIssues: string[];
}

/**
 * Runs in the page: bytes of capture 0's model (each typed array's buffer once, strings estimated)
 * and its load report's errors. Source text, as the probes: the TS runner's helpers do not exist there.
 */
const modelHeldBytes = new Function(`
  const capture = window.__nvtxview.store.getState().captures[0];
  const buffers = new Set();
  const seen = new Set();
  let bytes = 0;
  const walk = (v) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      if (!buffers.has(v.buffer)) { buffers.add(v.buffer); bytes += v.buffer.byteLength; }
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) {
        if (typeof x === 'string') bytes += 16 + x.length;
        else walk(x);
      }
      return;
    }
    for (const x of Object.values(v)) walk(x);
  };
  walk(capture.model);
  const issues = capture.model.issues.filter((i) => i.severity === 'error').slice(0, 3).map((i) => i.message);
  return { bytes, issues };
`) as () => { bytes: number; issues: string[] };

/** Zoom/pan script over the loaded capture (whole extent of capture 0). */
async function frameSamples(page: Page): Promise<FrameSample[]> {
  const extent = await page.evaluate(() => {
    const c = (window as unknown as { __nvtxview: { store: { getState(): { captures: { offsetNs: number; model: { durationNs: number } }[] } } } }).__nvtxview.store.getState()
      .captures[0];
    return [c.offsetNs, c.offsetNs + c.model.durationNs];
  });
  return runViews(page, scriptedViews(extent[0], extent[1]));
}

function medianFigures(list: LoadFigures[]): LoadFigures {
  const keys = Object.keys(list[0]) as (keyof LoadFigures)[];
  return Object.fromEntries(keys.map((k) => [k, round(median(list.map((f) => f[k])), 1)])) as unknown as LoadFigures;
}

/** speedscope: pick the file on its landing page, wait for its flame chart's first render. */
async function speedscopeLoad(browser: Browser, site: Served, path: string, timeoutMs: number): Promise<{ firstRenderMs: number; heapBytes: number; arrayBufferBytes: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await installProbes(page);
  // speedscope shows its view-mode toolbar ("Time Order") once a profile is imported; the flame
  // chart draws in the animation frames right after.
  await page.addInitScript(`(() => {
    const bench = window.__bench;
    const observer = new MutationObserver(() => {
      if (bench.firstDrawAt !== null || !document.body.textContent.includes('Time Order')) return;
      observer.disconnect();
      requestAnimationFrame(() => requestAnimationFrame(() => { bench.firstDrawAt = performance.now(); }));
    });
    function start() { observer.observe(document.body, { childList: true, subtree: true, characterData: true }); }
    if (document.body) start();
    else document.addEventListener('DOMContentLoaded', start);
  })();`);
  try {
    await page.goto(site.url);
    await page.locator('input[type=file]').setInputFiles(path);
    await page.waitForFunction(() => (window as unknown as { __bench: { firstDrawAt: number | null } }).__bench.firstDrawAt !== null, null, {
      timeout: timeoutMs,
      polling: 500,
    });
    const probes = await readProbes(page);
    const memory = await pageMemory(cdp);
    return { firstRenderMs: round(probes.firstDrawAt! - probes.pickedAt!), ...memory };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const machine = {
    cpus: cpus().length,
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    loadAverage1m: round(loadavg()[0], 2),
    chromium: chromiumVersion(),
    node: process.version,
  };
  log(`nvtxview browser benchmark · ${machine.chromium} · ${machine.cpus} CPUs · ${machine.memoryGiB} GiB · load average ${machine.loadAverage1m}`);
  const dist = values.dist ?? buildApp();
  const genDir = values.cache ?? mkdtempSync(join(tmpdir(), 'nvtxview-bench-captures-'));
  mkdirSync(genDir, { recursive: true });
  const app = await serve(dist, '/nvtxview/');
  const speedscope = await serve(SPEEDSCOPE_DIR, '/speedscope/');
  const browser = await launchChromium();
  const result: Record<string, unknown> = { machine, runs, pickAfterMs: Number(values['pick-after-ms']) };
  try {
    if (cases.has('native')) {
      const path = await capture(genDir, 'nvtxc', nativeEvents, 'nvtxc');
      const loads: LoadFigures[] = [];
      const tasks: number[][] = [];
      const frameP: { p50: number; p95: number; p99: number; max: number; latencyP95: number; undrawn: number }[] = [];
      for (let run = 0; run < runs; run++) {
        const loaded = await nvtxviewLoad(browser, app, path);
        const samples = await frameSamples(loaded.page);
        await loaded.close();
        const frames = samples.map((s) => s.frameMs);
        frameP.push({
          p50: percentile(frames, 0.5),
          p95: percentile(frames, 0.95),
          p99: percentile(frames, 0.99),
          max: Math.max(...frames),
          latencyP95: percentile(samples.map((s) => s.latencyMs), 0.95),
          undrawn: samples.filter((s) => !s.drawn).length,
        });
        loads.push(loaded.figures);
        tasks.push(loaded.longTasksMs);
        log(`  native run ${run + 1}: first draw ${loaded.figures.dropToFirstDrawMs} ms, loaded ${loaded.figures.dropToLoadedDrawMs} ms, long tasks [${loaded.longTasksMs.join(', ')}] ms, frame p95 ${frameP[run].p95.toFixed(1)} ms (load average ${loadavg()[0].toFixed(1)})`);
      }
      const m = medianFigures(loads);
      result.native10M = {
        file: path,
        fileBytes: statSync(path).size,
        events: nativeEvents,
        ...m,
        wholeCaptureMs: m.dropToLoadedDrawMs,
        frameP50Ms: round(median(frameP.map((f) => f.p50)), 1),
        frameP95Ms: round(median(frameP.map((f) => f.p95)), 1),
        frameP99Ms: round(median(frameP.map((f) => f.p99)), 1),
        frameMaxMs: round(median(frameP.map((f) => f.max)), 1),
        inputToFrameP95Ms: round(median(frameP.map((f) => f.latencyP95)), 1),
        framesNotDrawn: Math.max(...frameP.map((f) => f.undrawn)),
        perRun: loads,
        longTasksMsPerRun: tasks,
      };
    }
    if (cases.has('chrome')) {
      const path = await capture(genDir, 'chrome-json', chromeEvents, 'json');
      const loads: LoadFigures[] = [];
      const tasks: number[][] = [];
      for (let run = 0; run < runs; run++) {
        const loaded = await nvtxviewLoad(browser, app, path);
        await loaded.close();
        loads.push(loaded.figures);
        tasks.push(loaded.longTasksMs);
        log(`  chrome JSON run ${run + 1}: nvtxview first render ${loaded.figures.dropToFirstDrawMs} ms, complete ${loaded.figures.dropToLoadedDrawMs} ms (worker ${loaded.figures.workerDecodeMs} ms), long tasks [${loaded.longTasksMs.join(', ')}] ms (load average ${loadavg()[0].toFixed(1)})`);
      }
      const m = medianFigures(loads);
      const chrome: Record<string, unknown> = {
        file: path,
        fileBytes: statSync(path).size,
        events: chromeEvents,
        nvtxviewFirstRenderMs: m.dropToFirstDrawMs,
        nvtxviewCompleteRenderMs: m.dropToLoadedDrawMs,
        nvtxviewWorkerDecodeMs: m.workerDecodeMs,
        nvtxviewLongestTaskMs: m.longestTaskMs,
        nvtxviewLongTasksMsPerRun: tasks,
        nvtxviewHeapBytes: m.heapBytes,
        nvtxviewArrayBufferBytes: m.arrayBufferBytes,
        nvtxviewBytesPerRange: m.bytesPerRange,
      };
      if (!values['no-speedscope']) {
        log(`  speedscope on the same file (one run; minutes at 1M events)...`);
        const ss = await speedscopeLoad(browser, speedscope, path, Number(values['speedscope-timeout']) * 1000);
        chrome.speedscopeFirstRenderMs = ss.firstRenderMs;
        chrome.speedscopeHeapBytes = ss.heapBytes;
        chrome.speedscopeArrayBufferBytes = ss.arrayBufferBytes;
        // Against the complete nvtxview model (speedscope shows nothing before it has everything).
        chrome.speedupVsSpeedscope = round(ss.firstRenderMs / m.dropToLoadedDrawMs, 1);
        chrome.speedupFirstRenderVsSpeedscope = round(ss.firstRenderMs / m.dropToFirstDrawMs, 1);
      }
      result.chromeJson = chrome;
    }
    if (cases.has('nsys')) {
      const ranges = Number(values['nsys-ranges']);
      const bytes = Number(values['nsys-bytes']);
      const path = join(genDir, `nsys-${ranges}-${bytes}.sqlite`);
      let made: LargeNsysExport | undefined;
      try {
        if (!existsSync(path)) {
          const t0 = performance.now();
          made = await writeLargeNsysExport(path, { ranges, bytes });
          log(`generated ${path}: ${mb(made.bytes)} MB (${ranges} NVTX ranges, ${mb(made.fillerBytes)} MB of an unread table) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        }
      } catch (e) {
        // python3 missing: the other cases still run.
        result.nsysLarge = { error: (e as Error).message };
        log(`nsysLarge skipped: ${(e as Error).message}`);
      }
      if (existsSync(path)) {
        const loaded = await nvtxviewLoad(browser, app, path, true);
        await loaded.close();
        const w = loaded.worker!;
        log(`  nsys export ${mb(statSync(path).size)} MB: loaded ${loaded.figures.dropToLoadedDrawMs} ms, worker peak ${w.workerPeakMB} MB, model ${w.modelMB} MB, beyond the model ${w.workerExtraMB} MB (load average ${loadavg()[0].toFixed(1)})`);
        result.nsysLarge = {
          file: path,
          fileBytes: statSync(path).size,
          nvtxRanges: ranges,
          // Known when generated in this run (not for a file reused from --cache).
          unreadTableBytes: made?.fillerBytes ?? null,
          dropToLoadedDrawMs: loaded.figures.dropToLoadedDrawMs,
          workerDecodeMs: loaded.figures.workerDecodeMs,
          ranges: loaded.figures.ranges,
          heapBytes: loaded.figures.heapBytes,
          arrayBufferBytes: loaded.figures.arrayBufferBytes,
          ...w,
        };
      }
    }
    if (cases.has('largest')) {
      const events = Number(values['largest-events']);
      const bytes = Number(values['largest-bytes']);
      const largest: Record<string, unknown> = {};
      for (const [format, ext, key] of [
        ['chrome-json', 'json', 'chromeJson'],
        ['nvtxc', 'nvtxc', 'native'],
      ] as const) {
        const path = join(genDir, `largest-${format}-${events}-${bytes}-seed${seed}.${ext}`);
        if (!existsSync(path)) {
          const t0 = performance.now();
          // The events, spread over what a reader skips (whitespace between events, chunks of an unknown kind) up to `bytes`.
          const written = await generateFile(path, format, { events, seed, padding: bytes });
          log(`generated ${path}: ${written.events} events, ${mb(written.bytes)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        }
        const loaded = await nvtxviewLoad(browser, app, path, true);
        await loaded.close();
        const w = loaded.worker!;
        log(`  largest ${format} ${mb(statSync(path).size)} MB: loaded ${loaded.figures.dropToLoadedDrawMs} ms, worker peak ${w.workerPeakMB} MB, model ${w.modelMB} MB, page heap/buffers ${mb(loaded.figures.heapBytes)}/${mb(loaded.figures.arrayBufferBytes)} MB (load average ${loadavg()[0].toFixed(1)})`);
        largest[`${key}Bytes`] = statSync(path).size;
        largest[key] = {
          file: path,
          events,
          dropToFirstDrawMs: loaded.figures.dropToFirstDrawMs,
          dropToLoadedDrawMs: loaded.figures.dropToLoadedDrawMs,
          workerDecodeMs: loaded.figures.workerDecodeMs,
          ranges: loaded.figures.ranges,
          marks: loaded.figures.marks,
          pageHeapBytes: loaded.figures.heapBytes,
          pageArrayBufferBytes: loaded.figures.arrayBufferBytes,
          ...w,
        };
        // A multi-GB file is not kept unless asked (--cache): disk is shared.
        if (!values.cache) rmSync(path, { force: true });
      }
      result.largest = largest;
    }
    result.loadAverageEnd1m = round(loadavg()[0], 2);
  } finally {
    await browser.close();
    await app.close();
    await speedscope.close();
    if (!values.dist) rmSync(dist, { recursive: true, force: true });
    if (!values.cache) rmSync(genDir, { recursive: true, force: true });
  }
  if (values.json) process.stdout.write(JSON.stringify(result) + '\n');
  else process.stdout.write(table(result));
}

function table(r: Record<string, unknown>): string {
  const lines: string[] = [];
  const row = (label: string, value: unknown, unit = '') => lines.push(`  ${label.padEnd(34)} ${String(value ?? '—').padStart(12)} ${unit}`);
  const n = r.native10M as Record<string, number> | undefined;
  if (n) {
    lines.push(`native capture: ${n.events.toLocaleString('en-US')} events, ${mb(n.fileBytes)} MB (${n.ranges.toLocaleString('en-US')} ranges, ${n.marks.toLocaleString('en-US')} marks), median of ${runs} runs`);
    row('drop to first drawn timeline', n.dropToFirstDrawMs, 'ms');
    row('drop to loaded timeline', n.dropToLoadedDrawMs, 'ms');
    row('  of which the worker (decode + model)', n.workerDecodeMs, 'ms');
    row('longest main-thread task', n.longestTaskMs, 'ms (0: none over 50 ms)');
    row('tasks over 50 ms, per run', (n.longTasksMsPerRun as unknown as number[][]).map((t) => `[${t.join(', ')}]`).join(' '), 'ms');
    row('JS heap / array buffers', `${mb(n.heapBytes)} / ${mb(n.arrayBufferBytes)}`, 'MB');
    row('model bytes per range', n.bytesPerRange, 'B');
    row('frame time P50 / P95 / P99', `${n.frameP50Ms} / ${n.frameP95Ms} / ${n.frameP99Ms}`, 'ms');
    row('frame time max', n.frameMaxMs, 'ms');
    row('input to drawn frame P95', n.inputToFrameP95Ms, 'ms (includes the wait for the frame)');
  }
  const c = r.chromeJson as Record<string, number> | undefined;
  if (c) {
    lines.push(`Chrome JSON: ${c.events.toLocaleString('en-US')} events, ${mb(c.fileBytes)} MB`);
    const partial = c.nvtxviewFirstRenderMs < c.nvtxviewCompleteRenderMs;
    row('nvtxview drop to first render', c.nvtxviewFirstRenderMs, partial ? 'ms (partial model of the first 1/16)' : 'ms (the whole capture: no partial model)');
    row('nvtxview drop to complete render', c.nvtxviewCompleteRenderMs, 'ms');
    row('  of which the worker (decode + model)', c.nvtxviewWorkerDecodeMs, 'ms');
    row('nvtxview longest main-thread task', c.nvtxviewLongestTaskMs, 'ms (0: none over 50 ms)');
    row('nvtxview tasks over 50 ms, per run', (c.nvtxviewLongTasksMsPerRun as unknown as number[][]).map((t) => `[${t.join(', ')}]`).join(' '), 'ms');
    row('nvtxview JS heap / array buffers', `${mb(c.nvtxviewHeapBytes)} / ${mb(c.nvtxviewArrayBufferBytes)}`, 'MB');
    row('speedscope drop to first render', c.speedscopeFirstRenderMs, 'ms');
    if (c.speedscopeHeapBytes !== undefined) row('speedscope JS heap / array buffers', `${mb(c.speedscopeHeapBytes)} / ${mb(c.speedscopeArrayBufferBytes)}`, 'MB');
    row('speedup vs speedscope (complete)', c.speedupVsSpeedscope, 'x');
    row('speedup vs speedscope (first render)', c.speedupFirstRenderVsSpeedscope, 'x');
  }
  const ns = r.nsysLarge as Record<string, number> | undefined;
  if (ns && ns.fileBytes !== undefined) {
    lines.push(`nsys export: ${mb(ns.fileBytes)} MB (${ns.nvtxRanges.toLocaleString('en-US')} NVTX ranges + calls + kernels${ns.unreadTableBytes ? `, ${mb(ns.unreadTableBytes)} MB of a table nvtxview does not read` : ''}), one run`);
    row('drop to loaded timeline', ns.dropToLoadedDrawMs, 'ms');
    row('load worker peak (heap + buffers)', ns.workerPeakMB, 'MB');
    row('model', ns.modelMB, 'MB');
    row('worker beyond the model', ns.workerExtraMB, 'MB');
  }
  const lg = r.largest as Record<string, Record<string, number> & { file: string }> | undefined;
  if (lg) {
    for (const key of ['chromeJson', 'native'] as const) {
      const c = lg[key];
      if (!c) continue;
      lines.push(`largest ${key === 'native' ? 'native capture' : 'Chrome JSON'}: ${mb(lg[`${key}Bytes`] as unknown as number)} MB, ${c.events.toLocaleString('en-US')} events, one run`);
      row('drop to loaded timeline', c.dropToLoadedDrawMs, 'ms');
      row('load worker peak (heap + buffers)', c.workerPeakMB, 'MB');
      row('model', c.modelMB, 'MB');
      row('page JS heap / array buffers', `${mb(c.pageHeapBytes)} / ${mb(c.pageArrayBufferBytes)}`, 'MB');
    }
  }
  const m = r.machine as Record<string, unknown>;
  lines.push(`machine: ${m.cpus} CPUs, ${m.memoryGiB} GiB, ${m.chromium}, load average ${m.loadAverage1m} at start, ${r.loadAverageEnd1m} at end`);
  return lines.join('\n') + '\n';
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:browser: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
