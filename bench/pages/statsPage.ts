/**
 * Browser side of the statistics benchmark (`bench/suites/statsBrowser.mjs` serves and drives it): on a
 * generated capture, the panel's requests computed on the page (median of `reps`), then through
 * the statistics worker: the first request (which copies the model for the worker), later round
 * trips, the longest frame gap on the page meanwhile, and the bytes the worker holds.
 */
import { syntheticCapture } from '../lib/syntheticCapture.ts';
import { computeStats, type StatsRequest } from '../../src/ui/stats/compute.ts';
import { StatsService } from '../../src/ui/stats/statsService.ts';

const params = new URLSearchParams(location.search);
const ranges = Number(params.get('ranges') ?? 1_000_000);
const threads = Number(params.get('threads') ?? 16);
const reps = Number(params.get('reps') ?? 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Longest gap between animation frames while `work` runs (what a user would feel as a freeze). */
async function frameGap<T>(work: () => Promise<T>): Promise<{ result: T; gapMs: number }> {
  let last = performance.now();
  let gap = 0;
  let running = true;
  const tick = (now: number) => {
    gap = Math.max(gap, now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const result = await work();
  running = false;
  return { result, gapMs: gap };
}

const t0 = performance.now();
const model = syntheticCapture(ranges, threads);
const buildMs = performance.now() - t0;
const capture = { id: 1, model, offsetNs: 0, decodeMs: 0 };
const whole = { span: null, mode: 'clip' as const, tracks: null };
const tenth = { span: { startNs: model.durationNs * 0.45, endNs: model.durationNs * 0.55 }, mode: 'clip' as const, tracks: null };
const table = computeStats(model, { kind: 'ranges', scope: whole, grouping: { by: 'name' } });
const topKey = table.kind === 'ranges' ? table.result.rows[0].key : '';
const requests: [string, StatsRequest][] = [
  ['ranges, whole capture', { kind: 'ranges', scope: whole, grouping: { by: 'name' } }],
  ['ranges, 10% span', { kind: 'ranges', scope: tenth, grouping: { by: 'name' } }],
  ['ranges by thread, whole', { kind: 'ranges', scope: whole, grouping: { by: 'thread' } }],
  ['instances of the top row', { kind: 'instances', scope: whole, grouping: { by: 'name' }, key: topKey }],
];

const page: Record<string, number> = {};
for (const [label, request] of requests) {
  const times: number[] = [];
  for (let k = 0; k < reps; k++) {
    const a = performance.now();
    computeStats(model, request);
    times.push(performance.now() - a);
  }
  page[label] = +median(times).toFixed(1);
}

const service = new StatsService(undefined, 0);
// The first run copies the model for the worker (in slices, yielding between them).
const firstStart = performance.now();
const first = await frameGap(() => service.run(capture, requests[0][1], 'bench'));
const firstTripMs = performance.now() - firstStart;
const firstMs = first.result ? first.result.ms : NaN;
const worker: Record<string, { roundTripMs: number; computeMs: number; frameGapMs: number }> = {};
for (const [label, request] of requests) {
  const trips: number[] = [];
  const computes: number[] = [];
  let gap = 0;
  for (let k = 0; k < reps; k++) {
    const a = performance.now();
    const { result, gapMs } = await frameGap(() => service.run(capture, request, 'bench'));
    trips.push(performance.now() - a);
    computes.push(result?.ms ?? NaN);
    gap = Math.max(gap, gapMs);
  }
  worker[label] = { roundTripMs: +median(trips).toFixed(1), computeMs: +median(computes).toFixed(1), frameGapMs: +gap.toFixed(1) };
}
(window as unknown as { benchResult: unknown }).benchResult = {
  ranges: model.ranges.startNs.length,
  threads,
  buildMs: Math.round(buildMs),
  page,
  firstWorkerRun: { roundTripMs: +firstTripMs.toFixed(1), computeMs: +firstMs.toFixed(1), frameGapMs: +first.gapMs.toFixed(1) },
  worker,
  workerCopyBytes: service.copiedBytes(),
};
service.dispose();
document.title = 'done';
