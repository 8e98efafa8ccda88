/**
 * Where a frame's time goes while the timeline pans and zooms a big capture, several builds side by
 * side. Each build (--dist A,B,...) gets its own page with the capture loaded once; then, round by
 * round and build by build in turn, the zoom/pan script of `npm run bench:browser`
 * (bench/lib/frames.ts) runs under a DevTools trace. Per step of the script it reports:
 *
 *  wall   the script's own frame time (the rAF timestamp to just after the timeline drew: the
 *         figure `bench:browser` gives as frameP95Ms);
 *  cpu    the main thread's CPU (thread) time of the task that drew the step: animation-frame
 *         callbacks, then style, layout, paint and the commit, where a software canvas is rastered
 *         and handed to the compositor. On a busy machine wall time holds the waits for a core;
 *         CPU time does not. The other main-thread tasks since the previous step's (idle callbacks,
 *         messages) are counted apart ("other tasks").
 *  draw   of cpu, the animation-frame callbacks alone (the timeline's JavaScript); commit, the commit.
 *
 * and per run the longest main-thread task during the script (wall and CPU ms).
 *
 * With --sampling, V8's sampling profiler runs too and the functions with the most self time in the
 * steps are listed (slower: use it to look, not for figures). With --pixels, the static canvas is
 * hashed at a spread of the script's views in every build, and the views where builds differ are
 * named. With --pointer, the mouse rests over the rows during the script (the overlay draws in every
 * frame, as when zooming with the wheel). With --screens DIR, PNG screenshots of the timeline at five zoom levels per build.
 *
 *   node scripts/run-ts.mjs bench/run.ts frame-profile --dist A[,B...] --file CAPTURE [--rounds 3]
 *     [--query Q1,Q2...] [--pointer] [--sampling] [--categories A,B] [--top 15] [--pixels] [--screens DIR] [--dpr 1] [--json]
 *     [--settle-ms 1500] [--slowest N] [--thread-events NAME]
 *
 * --settle-ms 0 starts the first round right after the load, as `bench:browser` does (the page then
 * still copies the model for the statistics worker and collects the load's garbage, and a spare
 * load worker may warm up); --slowest N lists per run the N steps of longest wall time with what else ran on the
 * main thread since the step before (outermost events, thread ms), and the CPU of every thread of
 * the browser during the script (workers, compositor: what competes for a core); --thread-events
 * NAME lists the outermost events of the threads whose name holds NAME (e.g. Worker).
 */
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, serve, type Served } from '../lib/chromiumApp.ts';
import { median, percentile, scriptedViews } from '../lib/frames.ts';
import { installProbes } from '../lib/pageProbes.ts';
import { frameName, profileSamples, type TraceEvent } from '../lib/traceProfile.ts';

const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    file: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    sampling: { type: 'boolean', default: false },
    top: { type: 'string', default: '15' },
    pixels: { type: 'boolean', default: false },
    screens: { type: 'string' },
    dpr: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    query: { type: 'string' },
    categories: { type: 'string' },
    pointer: { type: 'boolean', default: false },
    'settle-ms': { type: 'string', default: '1500' },
    slowest: { type: 'string', default: '0' },
    'thread-events': { type: 'string' },
  },
});
if (!values.dist || !values.file) {
  process.stderr.write('usage: bench/run.ts frame-profile --dist A[,B...] --file CAPTURE [--rounds N] [--sampling] [--pixels] [--screens DIR] [--json]\n');
  process.exit(2);
}
const dists = values.dist.split(',');
/** Appended to each build's URL (`--query` lists one per build, comma-separated): one build, several settings. */
const queries = values.query === undefined ? dists.map(() => '') : values.query.split(',');
if (queries.length !== dists.length) throw new Error('--query needs one entry per --dist entry');
const labels = dists.map((d, i) => d + queries[i]);
const rounds = Math.max(1, Number(values.rounds));
const topN = Number(values.top);
const VIEWPORT = { width: 1600, height: 900 };
/** With --slowest N, the N steps of longest wall time per run are listed with what else ran on the main thread before them. */
const slowest = Number(values.slowest);
const log = (line: string) => process.stderr.write(line + '\n');

/** In-page script: one view per frame, a user-timing mark right after each setView. */
const RUN_VIEWS = `async (list) => {
  const store = window.__nvtxview.store;
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const wall = [];
  await nextFrame();
  for (let i = 0; i < list.length; i++) {
    const inputAt = performance.now();
    store.getState().setView(list[i][0], list[i][1]);
    performance.mark('frame-step');
    const frameStart = await nextFrame();
    wall.push(performance.now() - frameStart);
    void inputAt;
  }
  await nextFrame();
  performance.mark('frame-step');
  return wall;
}`;

interface StepFigures {
  wallMs: number;
  /** Thread time of the task that drew the step. */
  cpuMs: number;
  /** Of which the animation-frame callbacks (the timeline's JavaScript). */
  drawCpuMs: number;
  /** Of which the commit (where a software canvas is rastered and handed to the compositor). */
  commitCpuMs: number;
  /** Thread time of the other main-thread tasks since the previous step's (idle callbacks, messages, GC). */
  betweenCpuMs: number;
  /** What ran on the main thread for this step, beyond the frame's own phases: event name (with the function for calls) → thread ms. */
  busy?: Record<string, number>;
}

interface RunResult {
  steps: StepFigures[];
  /** The longest main-thread task from the first step to the last (wall and thread ms). */
  longestTaskMs: number;
  longestTaskCpuMs: number;
  /** Self time per function (sampling only), ms over all steps. */
  self: Map<string, number>;
  /** Trace events inside the steps' tasks by name, thread ms over all steps. */
  phases: Map<string, number>;
  /** CPU (thread ms) of every traced thread from the first step to the last, by process and thread name. */
  threads: Map<string, number>;
}

/**
 * What ran on the main thread in [from, to) (µs, trace clock) outside the frames: each task's
 * outermost events by name (calls with their function), thread ms. `onMain` sorted by start.
 */
function busyBetween(onMain: TraceEvent[], from: number, to: number, thread: (e: TraceEvent) => number): Record<string, number> {
  const out: Record<string, number> = {};
  let lo = 0;
  let hi = onMain.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (onMain[m].ts < from) lo = m + 1;
    else hi = m;
  }
  let outerEnd = -Infinity;
  for (let k = lo; k < onMain.length && onMain[k].ts < to; k++) {
    const e = onMain[k];
    // The tasks themselves are not counted: what ran in them is.
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') continue;
    if (e.ts < outerEnd) continue;
    const data = e.args?.data as { functionName?: string } | undefined;
    const key = data?.functionName ? `${e.name} ${data.functionName}` : e.name;
    out[key] = (out[key] ?? 0) + thread(e);
    outerEnd = e.ts + (e.dur ?? 0);
  }
  return out;
}

async function loadPage(browser: Browser, site: Served, query: string): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: Number(values.dpr) });
  const page = await context.newPage();
  await installProbes(page);
  await page.goto(site.url + query);
  await page.waitForFunction(() => (window as unknown as { __nvtxview?: { idle?: unknown } }).__nvtxview?.idle !== undefined);
  await page.getByTestId('open-input').setInputFiles(values.file!);
  await page.waitForFunction(() => (window as unknown as { __bench: { loadedDrawAt: number | null } }).__bench.loadedDrawAt !== null, null, {
    timeout: 600_000,
    polling: 200,
  });
  // 0: the script starts right after the load, as in `bench:browser` (the statistics copy and GC
  // then run during it).
  const settleMs = Number(values['settle-ms']);
  if (settleMs > 0) await page.waitForTimeout(settleMs);
  return page;
}

async function views(page: Page): Promise<[number, number][]> {
  const extent = await page.evaluate(() => {
    const c = (window as unknown as { __nvtxview: { store: { getState(): { captures: { offsetNs: number; model: { durationNs: number } }[] } } } }).__nvtxview.store.getState()
      .captures[0];
    return [c.offsetNs, c.offsetNs + c.model.durationNs];
  });
  return scriptedViews(extent[0], extent[1]);
}

async function tracedRun(browser: Browser, page: Page): Promise<RunResult> {
  const list = await views(page);
  if (values.pointer) {
    // The pointer rests over the middle of the rows, as when zooming with the wheel: the overlay
    // then draws the cursor line, its time and the hovered box's outline in every frame.
    const box = (await page.locator('canvas.tl-overlay').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  }
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute'];
  if (values.sampling) categories.push('disabled-by-default-v8.cpu_profiler');
  // More trace categories (e.g. 'cc,blink,skia') split the steps' phases finer in the listing.
  if (values.categories) categories.push(...values.categories.split(','));
  await browser.startTracing(page, { categories });
  const wall = (await page.evaluate(`(${RUN_VIEWS})(${JSON.stringify(list)})`)) as number[];
  const buffer = await browser.stopTracing();
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;

  // The page's main thread: the one that wrote the marks.
  const marks = events.filter((e) => e.name === 'frame-step' && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b' || e.ph === 'X'));
  if (marks.length !== list.length + 1) throw new Error(`expected ${list.length + 1} marks in the trace, found ${marks.length}`);
  const { pid, tid } = marks[0];
  const tasks = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'))
    .sort((a, b) => a.ts - b.ts);
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const taskAt = (ts: number) => {
    let lo = 0;
    let hi = tasks.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (tasks[m].ts <= ts) lo = m + 1;
      else hi = m;
    }
    const k = lo - 1;
    if (k < 0 || tasks[k].ts + (tasks[k].dur ?? 0) < ts) throw new Error(`no task holds the mark at ${ts}`);
    return k;
  };
  const markTask = marks.map((m) => taskAt(m.ts));
  const thread = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000;
  const steps: StepFigures[] = [];
  const phases = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    // View i was drawn in the task holding mark i + 1 (the script's callback of that frame set view i + 1).
    const from = markTask[i];
    const to = markTask[i + 1];
    let betweenCpuMs = 0;
    for (let k = from + 1; k < to; k++) betweenCpuMs += thread(tasks[k]);
    const task = tasks[to];
    const end = task.ts + (task.dur ?? 0);
    let drawCpuMs = 0;
    let commitCpuMs = 0;
    for (const e of onMain) {
      if (e.ts < task.ts || e.ts >= end || e === task) continue;
      if (e.name === 'FireAnimationFrame') drawCpuMs += thread(e);
      if (e.name === 'Commit') commitCpuMs += thread(e);
      phases.set(e.name, (phases.get(e.name) ?? 0) + thread(e));
    }
    const step: StepFigures = { wallMs: wall[i], cpuMs: thread(task), drawCpuMs, commitCpuMs, betweenCpuMs };
    if (slowest > 0) step.busy = busyBetween(onMain, tasks[from].ts + (tasks[from].dur ?? 0), task.ts, thread);
    steps.push(step);
  }

  let longestTaskMs = 0;
  let longestTaskCpuMs = 0;
  for (let k = markTask[0]; k <= markTask[list.length]; k++) {
    longestTaskMs = Math.max(longestTaskMs, (tasks[k].dur ?? 0) / 1000);
    longestTaskCpuMs = Math.max(longestTaskCpuMs, thread(tasks[k]));
  }
  // What the other threads (the statistics and load workers, the compositor, raster and GPU
  // threads) took meanwhile: on 2 cores they compete with the main thread for a core.
  const threads = new Map<string, number>();
  {
    const first = tasks[markTask[0]].ts;
    const lastTask = tasks[markTask[list.length]];
    const last = lastTask.ts + (lastTask.dur ?? 0);
    const names = new Map<string, string>();
    for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name ?? e.tid));
    const outerEnd = new Map<string, number>();
    const threadEvents = new Map<string, number>();
    const spans = events.filter((e) => e.ph === 'X' && e.ts >= first && e.ts < last).sort((a, b) => a.ts - b.ts);
    for (const e of spans) {
      const key = `${e.pid}:${e.tid}`;
      // Outermost events only: nested ones are inside their parent's time.
      if (e.ts < (outerEnd.get(key) ?? -Infinity)) continue;
      outerEnd.set(key, e.ts + (e.dur ?? 0));
      // Workers share one thread name: the thread id tells them apart.
      const name = `${e.pid === pid ? 'page' : `pid ${e.pid}`} ${names.get(key) ?? ''} ${e.tid}${e.pid === pid && e.tid === tid ? ' (main)' : ''}`;
      threads.set(name, (threads.get(name) ?? 0) + thread(e));
      if (values['thread-events'] && name.includes(values['thread-events'])) {
        const data = e.args?.data as { functionName?: string; url?: string } | undefined;
        const k = `${name} ${e.name} ${data?.functionName ?? ''} ${data?.url ?? ''}`;
        threadEvents.set(k, (threadEvents.get(k) ?? 0) + thread(e));
      }
    }
    for (const [k, ms] of [...threadEvents].sort((a, b) => b[1] - a[1]).slice(0, 12)) log(`      ${ms.toFixed(1).padStart(7)} ms ${k}`);
  }
  const self = new Map<string, number>();
  if (values.sampling) {
    const { nodes, samples } = profileSamples(events, pid, tid);
    if (samples.length > 0) {
      const first = tasks[markTask[0]].ts;
      const lastTask = tasks[markTask[list.length]];
      const last = lastTask.ts + (lastTask.dur ?? 0);
      for (let i = 0; i + 1 < samples.length; i++) {
        const [ts, id] = samples[i];
        if (ts < first || ts >= last) continue;
        const node = nodes.get(id);
        if (!node) continue;
        const name = frameName(node);
        self.set(name, (self.get(name) ?? 0) + (samples[i + 1][0] - ts) / 1000);
      }
    }
  }
  return { steps, longestTaskMs, longestTaskCpuMs, self, phases, threads };
}

/** Hash of the static canvas's pixels (FNV-1a over the RGBA bytes), read in the page. */
const CANVAS_HASH = `async ([a, b]) => {
  const hooks = window.__nvtxview;
  hooks.store.getState().setView(a, b);
  // Builds before the worker raster read the canvas here; later ones through the hook, which also reads a canvas a worker owns.
  let data;
  if (hooks.timeline.staticPixels) data = await hooks.timeline.staticPixels();
  else {
    await hooks.timeline.whenDrawn();
    const canvas = document.querySelector('canvas.tl-canvas:not(.tl-overlay)');
    data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 0x01000193);
  return (h >>> 0).toString(16);
}`;

async function main(): Promise<void> {
  const browser = await launchChromium();
  const sites: Served[] = [];
  const pages: Page[] = [];
  const out: Record<string, unknown> = { loadAverageStart: loadavg()[0], builds: labels, rounds: [] as unknown[] };
  try {
    for (let d = 0; d < dists.length; d++) {
      const site = await serve(dists[d], '/nvtxview/');
      sites.push(site);
      log(`loading ${values.file} in ${dists[d]}${queries[d]}`);
      pages.push(await loadPage(browser, site, queries[d]));
    }
    const all: StepFigures[][] = dists.map(() => []);
    const self: Map<string, number>[] = dists.map(() => new Map());
    const phases: Map<string, number>[] = dists.map(() => new Map());
    for (let round = 0; round < rounds; round++) {
      // Alternate which build goes first.
      const order = dists.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const d of order) {
        const load = loadavg()[0];
        const run = await tracedRun(browser, pages[d]);
        all[d].push(...run.steps);
        for (const [k, v] of run.self) self[d].set(k, (self[d].get(k) ?? 0) + v);
        for (const [k, v] of run.phases) phases[d].set(k, (phases[d].get(k) ?? 0) + v);
        const w = run.steps.map((s) => s.wallMs);
        const c = run.steps.map((s) => s.cpuMs);
        const line = {
          round: round + 1,
          dist: labels[d],
          load1m: Number(load.toFixed(2)),
          wallP50: percentile(w, 0.5),
          wallP95: percentile(w, 0.95),
          wallP99: percentile(w, 0.99),
          cpuP50: percentile(c, 0.5),
          cpuP95: percentile(c, 0.95),
          cpuP99: percentile(c, 0.99),
          cpuMean: c.reduce((a, b) => a + b, 0) / c.length,
          drawCpuP95: percentile(run.steps.map((s) => s.drawCpuMs), 0.95),
          commitCpuP95: percentile(run.steps.map((s) => s.commitCpuMs), 0.95),
          betweenCpuP95: percentile(run.steps.map((s) => s.betweenCpuMs), 0.95),
          longestTaskMs: run.longestTaskMs,
          longestTaskCpuMs: run.longestTaskCpuMs,
          perStep: values.json ? run.steps : undefined,
        };
        (out.rounds as unknown[]).push(line);
        log(
          `round ${line.round} ${labels[d]} (load ${line.load1m}): wall P50/P95/P99 ${line.wallP50.toFixed(1)}/${line.wallP95.toFixed(1)}/${line.wallP99.toFixed(1)} ms; ` +
            `CPU P50/P95/P99 ${line.cpuP50.toFixed(1)}/${line.cpuP95.toFixed(1)}/${line.cpuP99.toFixed(1)} ms, mean ${line.cpuMean.toFixed(2)}; P95 of draw ${line.drawCpuP95.toFixed(1)}, commit ${line.commitCpuP95.toFixed(1)}, other tasks ${line.betweenCpuP95.toFixed(1)} ms; longest task ${line.longestTaskMs.toFixed(1)} ms (CPU ${line.longestTaskCpuMs.toFixed(1)})`,
        );
        if (slowest > 0) {
          const busiest = [...run.threads].sort((a, b) => b[1] - a[1]).slice(0, 8);
          log(`    CPU of the busiest threads during the script: ${busiest.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ')} ms`);
          const byWall = run.steps.map((_, i) => i).sort((a, b) => run.steps[b].wallMs - run.steps[a].wallMs);
          for (const i of byWall.slice(0, slowest)) {
            const st = run.steps[i];
            const busy = Object.entries(st.busy ?? {})
              .filter(([, ms]) => ms >= 0.1)
              .sort((a, b) => b[1] - a[1])
              .map(([k, ms]) => `${k} ${ms.toFixed(1)}`)
              .join(', ');
            log(`    step ${i}: wall ${st.wallMs.toFixed(1)}, CPU ${st.cpuMs.toFixed(1)} (draw ${st.drawCpuMs.toFixed(1)}, commit ${st.commitCpuMs.toFixed(1)}), before it: ${busy || 'nothing'}`);
          }
        }
      }
    }
    const summary: Record<string, unknown> = {};
    for (let d = 0; d < dists.length; d++) {
      const steps = all[d];
      const c = steps.map((s) => s.cpuMs);
      summary[labels[d]] = {
        steps: steps.length,
        cpuP50: percentile(c, 0.5),
        cpuP95: percentile(c, 0.95),
        cpuP99: percentile(c, 0.99),
        cpuMax: Math.max(...c),
        cpuMedianOfRoundsP95: median((out.rounds as { dist: string; cpuP95: number }[]).filter((r) => r.dist === labels[d]).map((r) => r.cpuP95)),
        drawCpuP95: percentile(steps.map((s) => s.drawCpuMs), 0.95),
        commitCpuP95: percentile(steps.map((s) => s.commitCpuMs), 0.95),
        betweenCpuP95: percentile(steps.map((s) => s.betweenCpuMs), 0.95),
        wallP95: percentile(steps.map((s) => s.wallMs), 0.95),
      };
      log(`\n${labels[d]}: ${JSON.stringify(summary[labels[d]])}`);
      log('  thread time inside the steps\' frame tasks, ms per step:');
      for (const [k, v] of [...phases[d]].sort((a, b) => b[1] - a[1]).slice(0, topN)) log(`    ${(v / steps.length).toFixed(3).padStart(8)}  ${k}`);
      if (values.sampling) {
        log('  JavaScript self time, ms per step:');
        for (const [k, v] of [...self[d]].sort((a, b) => b[1] - a[1]).slice(0, topN)) log(`    ${(v / steps.length).toFixed(3).padStart(8)}  ${k}`);
      }
    }
    out.summary = summary;

    if (values.pixels) {
      const list = (await views(pages[0])).filter((_, i) => i % 3 === 0);
      const hashes: string[][] = [];
      for (const page of pages) {
        const h: string[] = [];
        for (const v of list) h.push((await page.evaluate(`(${CANVAS_HASH})(${JSON.stringify(v)})`)) as string);
        hashes.push(h);
      }
      const differ = list.map((_, i) => i).filter((i) => hashes.some((h) => h[i] !== hashes[0][i]));
      out.pixels = { views: list.length, differ: differ.map((i) => list[i]) };
      log(`\nstatic canvas pixels at ${list.length} views: ${differ.length === 0 ? 'identical in every build' : `differ at ${differ.length}: ${differ.map((i) => `#${i * 3}`).join(', ')}`}`);
    }

    if (values.screens) {
      mkdirSync(values.screens, { recursive: true });
      const all = await views(pages[0]);
      const picks = [0, 20, 40, 80, 110, 120, 150];
      for (let d = 0; d < pages.length; d++) {
        for (const k of picks) {
          await pages[d].evaluate(`(async ([a, b]) => { window.__nvtxview.store.getState().setView(a, b); await window.__nvtxview.timeline.whenDrawn(); })(${JSON.stringify(all[k])})`);
          await pages[d].screenshot({ path: join(values.screens, `build${d}-view${k}.png`) });
        }
      }
      log(`screenshots in ${values.screens}: build<N>-view<K>.png (views ${picks.join(', ')} of the script)`);
    }
    out.loadAverageEnd = loadavg()[0];
    if (values.json) process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await browser.close();
    for (const s of sites) await s.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`frame-profile: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
