/**
 * The one entry point of every benchmark: `node scripts/run-ts.mjs bench/run.ts SUITE [ARGS...]`
 * (`npm run bench`, `bench:browser` and `bench:collector` name their suite). Each suite prints
 * figures, not pass/fail, and reads its own arguments (`--json` where it has a JSON form);
 * `bench/run.ts --list` lists them. Measured figures are kept in docs/performance.md.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Suite name -> its file (below bench/suites/) and what it measures. */
export const SUITES: Record<string, { file: string; about: string }> = {
  pipeline: { file: 'pipeline.ts', about: 'decode + model per format through loadModel, and range statistics (npm run bench)' },
  browser: { file: 'browser.ts', about: 'the built app in headless Chromium: first draw, long tasks, frames, memory; speedscope beside it (npm run bench:browser)' },
  collector: { file: 'collector.mjs', about: 'collector overhead per push/pop pair and its write rate (npm run bench:collector)' },
  'profile-load': { file: 'profileLoad.ts', about: 'a CPU profile of one load in the built app: where the long tasks go' },
  'payload-decode': { file: 'payloadDecode.ts', about: 'extended payload decoder throughput' },
  'native-decode': { file: 'nativeDecode.ts', about: 'native .nvtxc decode of a written capture [events]' },
  'nsys-decode': { file: 'nsysDecode.ts', about: 'Nsight Systems SQLite import [nvtxRanges]' },
  'nvtxt-decode': { file: 'nvtxtDecode.ts', about: 'NVTXT decode [lines]' },
  'frame-profile': { file: 'frameProfile.ts', about: 'main-thread CPU per frame of the zoom/pan script in the built app, builds alternated (--dist A,B --file F [--sampling] [--pixels] [--settle-ms 0 --slowest N: right after the load, each thread\'s CPU and the slowest frames])' },
  'load-cpu': { file: 'loadCpu.ts', about: 'CPU of one load and of its finish() in Node, this checkout against another (and after the load worker JIT warm-up), alternated (--file F [--against DIR] [--runs N] [--warm-up] [--decoder-only])' },
  'chrome-throughput': { file: 'chromeThroughput.ts', about: 'Chrome JSON: read, parse and build separately [--events N] [--seed N]' },
  'event-table': { file: 'eventTable.ts', about: 'events table: sort and filter of large models [ranges ...]' },
  'timeline-draw': { file: 'timelineDraw.ts', about: 'timeline draw calls per view in Node [ranges] [threads]' },
  'timeline-draw-browser': { file: 'timelineDrawBrowser.mjs', about: 'static-frame time in Chromium (bench/pages/draw.html) [ranges threads reps width height dpr]' },
  compare: { file: 'compare.ts', about: 'comparison of two generated captures (npm run bench:compare) [--events N] [--runs N] [--json]' },
  'stats-browser': { file: 'statsBrowser.mjs', about: 'statistics panel requests in Chromium (bench/pages/stats.html) [ranges threads reps]' },
};

const [suite, ...args] = process.argv.slice(2);
const entry = suite === undefined ? undefined : SUITES[suite];
if (entry === undefined) {
  const known = Object.entries(SUITES).map(([name, s]) => `  ${name.padEnd(22)} ${s.about}`).join('\n');
  const wanted = suite === undefined || suite === '--list';
  (wanted ? process.stdout : process.stderr).write(`${wanted ? '' : `unknown suite "${suite}"\n`}usage: node scripts/run-ts.mjs bench/run.ts SUITE [ARGS...]\n${known}\n`);
  process.exit(wanted && suite === '--list' ? 0 : 2);
}
const path = resolve(import.meta.dirname, 'suites', entry.file);
// The suite sees itself as argv[1] and its own arguments after it, as if run directly.
process.argv = [process.argv[0], path, ...args];
await import(pathToFileURL(path).href);
