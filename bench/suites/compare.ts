/**
 * `npm run bench:compare`: how long the comparison of two captures takes to appear (issue 18's
 * target: under 2 s for two 10M-event captures).
 *
 *  node      `compareCaptures` in Node on two captures of the event generator (testkit/gen/,
 *            default 10M ranges + marks each, 16 threads, seeds 1 and 2) built directly with
 *            ModelBuilder: the statistics table of each side, a sample of each group's durations,
 *            the noise test per row; median of several runs after a warm-up.
 *  browser   (--browser) the same two captures written as .nvtxc files and picked in the built app
 *            in headless Chromium (bench/lib/compareInBrowser.ts): click on the Compare tab until
 *            the table has rows, a row's detail, "Align"; each with the longest frame gap and
 *            longest main-thread task. `settled`: clicked once the statistics worker is idle (the
 *            halves prepared ahead of time); `atOnce`: clicked as soon as both loads ended.
 *
 * Options: --events N, --runs N (Node runs; browser: runs of each way), --browser, --no-node,
 * --dist DIR (a build to use), --cache DIR (keep/reuse the generated files), --json.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareCaptures } from '../../src/analysis/compare/index.ts';
import { buildApp, chromiumVersion, launchChromium, serve } from '../lib/chromiumApp.ts';
import { compareInBrowser, type CompareRun } from '../lib/compareInBrowser.ts';
import { generateFile } from '../../testkit/gen/main.ts';
import { buildGeneratedModel } from '../../testkit/gen/model.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '5' },
    browser: { type: 'boolean', default: false },
    'no-node': { type: 'boolean', default: false },
    dist: { type: 'string' },
    cache: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const events = Number(values.events);
const runs = Math.max(1, Number(values.runs));
const THREADS = 16;
const SEEDS = [1, 2] as const;
const log = (line: string) => {
  if (!values.json) process.stderr.write(line + '\n');
};
const load = () => loadavg().map((l) => Number(l.toFixed(2)));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function nodeFigures() {
  const t0 = performance.now();
  const base = buildGeneratedModel({ events, seed: SEEDS[0], threads: THREADS });
  const candidate = buildGeneratedModel({ events, seed: SEEDS[1], threads: THREADS });
  const buildS = (performance.now() - t0) / 1000;
  let rows = 0;
  compareCaptures(base, candidate); // warm-up
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    rows = compareCaptures(base, candidate).rows.length;
    times.push(performance.now() - t);
  }
  return {
    rangesBase: base.ranges.startNs.length,
    rangesCandidate: candidate.ranges.startNs.length,
    rows,
    compareMs: Math.round(median(times)),
    runsMs: times.map((t) => Math.round(t)),
    buildS: Math.round(buildS),
    loadavg: load(),
  };
}

async function browserFigures() {
  const dir = values.cache ?? mkdtempSync(join(tmpdir(), 'nvtxview-compare-'));
  mkdirSync(dir, { recursive: true });
  const dist = values.dist ?? buildApp();
  try {
    const files = [] as string[];
    for (const seed of SEEDS) {
      const path = join(dir, `compare-${events}-t${THREADS}-seed${seed}.nvtxc`);
      if (!existsSync(path) || statSync(path).size === 0) {
        const t0 = performance.now();
        await generateFile(path, 'nvtxc', { events, seed, threads: THREADS });
        log(`generated ${path} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
      files.push(path);
    }
    const app = await serve(dist, '/');
    const browser = await launchChromium();
    try {
      const settled: (CompareRun & { loadavg: number[] })[] = [];
      const atOnce: (CompareRun & { loadavg: number[] })[] = [];
      // Alternate the two ways so that both see the same machine load.
      for (let r = 0; r < Math.min(runs, 3); r++) {
        for (const [settle, into] of [[true, settled], [false, atOnce]] as const) {
          const run = await compareInBrowser(browser, app, files as [string, string], settle);
          into.push({ ...run, loadavg: load() });
          log(`${settle ? 'settled' : 'at once'}: table ${run.table.ms} ms (frame gap ${run.table.longestFrameGapMs}, task ${run.table.longestTaskMs}); detail ${run.detail.ms} ms; align ${run.align.ms} ms (frame gap ${run.align.longestFrameGapMs}, task ${run.align.longestTaskMs}); load ${run.loadMs} ms${run.prepareMs !== undefined ? `, prepared ${run.prepareMs} ms later` : ''}; load average ${load().join(' ')}`);
        }
      }
      return { chromium: chromiumVersion(), settled, atOnce };
    } finally {
      await browser.close();
      await app.close();
    }
  } finally {
    if (!values.cache) rmSync(dir, { recursive: true, force: true });
    if (!values.dist) rmSync(dist, { recursive: true, force: true });
  }
}

const figure = {
  events,
  threads: THREADS,
  cpus: cpus().length,
  ...(values['no-node'] ? {} : { node: nodeFigures() }),
  ...(values.browser ? { browser: await browserFigures() } : {}),
};
if (values.json) process.stdout.write(JSON.stringify(figure) + '\n');
else {
  const n = figure.node;
  if (n) {
    process.stdout.write(
      `compare two captures of ${events.toLocaleString('en')} events (${n.rangesBase.toLocaleString('en')} + ${n.rangesCandidate.toLocaleString('en')} ranges, ${n.rows} rows) in Node: ` +
        `${n.compareMs} ms (median of ${runs}; runs ${n.runsMs.join(', ')} ms)\n` +
        `models built in ${n.buildS} s; ${figure.cpus} CPUs, load average ${n.loadavg.join(' ')}\n`,
    );
  }
  const b = figure.browser;
  if (b) {
    for (const [way, list] of [['settled', b.settled], ['at once', b.atOnce]] as const) {
      process.stdout.write(`Chromium, ${way}: table ${list.map((r) => r.table.ms).join(', ')} ms; longest frame gap ${list.map((r) => r.table.longestFrameGapMs).join(', ')} ms; align ${list.map((r) => r.align.ms).join(', ')} ms (longest task ${list.map((r) => r.align.longestTaskMs).join(', ')} ms)\n`);
    }
  }
}
