/**
 * Drawing cost of the timeline without a browser: the JavaScript side of a frame (searches, merging,
 * label eliding) against a context that records nothing. Prints figures; run with
 *   node scripts/run-ts.mjs bench/run.ts timeline-draw [ranges=2000000] [threads=16]
 */
import type { Canvas2D } from '../../src/timeline/canvas2d.ts';
import { drawStaticFrame } from '../../src/timeline/frame.ts';
import { TextMeasurer } from '../../src/timeline/text.ts';
import { themeFrom } from '../../src/timeline/theme.ts';
import { TimeScale } from '../../src/timeline/timeScale.ts';
import { buildTrackLayout } from '../../src/timeline/trackLayout.ts';
import { benchmarkViews, syntheticCapture } from '../lib/syntheticCapture.ts';

/** Counts calls; draws nothing. */
function countingContext(): Canvas2D & { calls: number } {
  const ctx = { calls: 0 } as Canvas2D & { calls: number };
  const count = () => {
    ctx.calls++;
  };
  for (const op of ['fillRect', 'strokeRect', 'clearRect', 'fillText', 'beginPath', 'moveTo', 'lineTo', 'closePath', 'stroke', 'fill', 'rect', 'clip', 'save', 'restore', 'setTransform', 'translate', 'setLineDash']) {
    (ctx as unknown as Record<string, () => void>)[op] = count;
  }
  ctx.measureText = (s: string) => ({ width: s.length * 6 }) as TextMetrics;
  return ctx;
}

const ranges = Number(process.argv[2] ?? 2_000_000);
const threads = Number(process.argv[3] ?? 16);
const t0 = performance.now();
const model = syntheticCapture(ranges, threads);
const buildMs = performance.now() - t0;
const layout = buildTrackLayout([{ id: 1, model, offsetNs: 0, decodeMs: 0 }], {});
const theme = themeFrom({}, false);
const text = new TextMeasurer((s) => s.length * 6);
const width = 1670;
const ctx = countingContext();
const times: number[] = [];
const calls: number[] = [];
for (const [start, end] of benchmarkViews(model.durationNs)) {
  ctx.calls = 0;
  const a = performance.now();
  drawStaticFrame(ctx, { layout, scale: new TimeScale(start, end, width), scrollTopCss: 0, widthCss: width, heightCss: 1080, theme, dpr: 1 }, text);
  times.push(performance.now() - a);
  calls.push(ctx.calls);
}
const sorted = [...times].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2);
console.log(`ranges ${model.ranges.startNs.length}, threads ${threads}, model built in ${buildMs.toFixed(0)} ms`);
console.log(`frames ${times.length} at ${width} x 1080 CSS px: JS per frame p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pct(1)} ms`);
console.log(`canvas calls per frame: median ${[...calls].sort((a, b) => a - b)[calls.length >> 1]}, max ${Math.max(...calls)}`);
if (process.env.BENCH_SEQ) console.log(times.map((t) => t.toFixed(1)).join(' '));
