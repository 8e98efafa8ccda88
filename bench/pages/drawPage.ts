/**
 * Browser side of the drawing benchmark (`bench/suites/timelineDrawBrowser.mjs` serves and drives it): builds the
 * generated capture, then draws the scripted views on a real canvas, each `reps` times, keeping
 * the fastest (the machine is shared; the minimum is the least disturbed). The timing includes
 * rasterising: `getImageData` of one pixel waits for the canvas to finish.
 */
import { drawStaticFrame } from '../../src/timeline/frame.ts';
import { TextMeasurer } from '../../src/timeline/text.ts';
import { readTheme } from '../../src/timeline/theme.ts';
import { TimeScale } from '../../src/timeline/timeScale.ts';
import { buildTrackLayout } from '../../src/timeline/trackLayout.ts';
import { benchmarkViews, syntheticCapture } from '../lib/syntheticCapture.ts';
import '../../src/ui/theme.css';

const params = new URLSearchParams(location.search);
const ranges = Number(params.get('ranges') ?? 2_000_000);
const threads = Number(params.get('threads') ?? 16);
const reps = Number(params.get('reps') ?? 3);
const widthCss = Number(params.get('width') ?? 1920);
const heightCss = Number(params.get('height') ?? 1080);
const dpr = Number(params.get('dpr') ?? 1);
/** Width of the track tree beside the canvas in the app. */
const TREE_CSS = 250;

const t0 = performance.now();
const model = syntheticCapture(ranges, threads);
const buildMs = performance.now() - t0;
const canvas = document.getElementById('canvas') as HTMLCanvasElement;
const canvasWidth = widthCss - TREE_CSS;
canvas.width = Math.round(canvasWidth * dpr);
canvas.height = Math.round(heightCss * dpr);
canvas.style.width = `${canvasWidth}px`;
canvas.style.height = `${heightCss}px`;
const ctx = canvas.getContext('2d', { alpha: false })!;
const layout = buildTrackLayout([{ id: 1, model, offsetNs: 0, decodeMs: 0 }], {});
const theme = readTheme(document.documentElement);
const text = new TextMeasurer((s) => ctx.measureText(s).width);

const times: number[] = [];
for (const [start, end] of benchmarkViews(model.durationNs)) {
  const frame = { layout, scale: new TimeScale(start, end, canvasWidth), scrollTopCss: 0, widthCss: canvasWidth, heightCss, theme, dpr };
  let best = Infinity;
  for (let rep = 0; rep < reps; rep++) {
    const a = performance.now();
    drawStaticFrame(ctx, frame, text);
    ctx.getImageData(0, 0, 1, 1);
    best = Math.min(best, performance.now() - a);
  }
  times.push(best);
}
const sorted = [...times].sort((a, b) => a - b);
const percentile = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
(window as unknown as { benchResult: unknown }).benchResult = {
  ranges: model.ranges.startNs.length,
  threads,
  viewport: `${widthCss}x${heightCss}@${dpr}`,
  buildMs: Math.round(buildMs),
  frames: times.length,
  p50Ms: +percentile(0.5).toFixed(1),
  p95Ms: +percentile(0.95).toFixed(1),
  maxMs: +percentile(1).toFixed(1),
};
document.title = 'done';
