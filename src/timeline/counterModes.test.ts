/** Counter rows drawn and described by their NVTX counter semantics (interpolation, limits). */
import { describe, expect, it } from 'vitest';
import type { CounterTrackInfo, Model } from '../model/types.ts';
import { drawStaticFrame, hitTestFrame, RULER_HEIGHT_CSS } from './frame.ts';
import { counterValueScale } from './renderers/counterRow.ts';
import type { Hit } from './renderers/trackRenderer.ts';
import { testFrame, testText } from '../../testkit/canvas/testFrames.ts';
import { builder, loaded } from '../../testkit/models/timelineModels.ts';
import { RecordingCanvas } from '../../testkit/canvas/recordingCanvas.ts';
import { tooltipContent } from './tooltip.ts';

/** One counter row with samples (0 ns, 10), (1000 ns, 30), (2000 ns, 20). */
function counterModel(counter?: CounterTrackInfo): Model {
  const b = builder();
  const p = b.process(1, 'p');
  const row = b.counterRow({ label: 'c', process: p, unit: 'u', counter });
  b.counter(row, 0, 10);
  b.counter(row, 1000, 30);
  b.counter(row, 2000, 20);
  b.setCaptureSpan(0, 4000);
  return b.finish();
}

function draw(model: Model) {
  const frame = testFrame([loaded(model)], { startNs: 0, endNs: 4000, widthCss: 400 });
  const ctx = new RecordingCanvas();
  drawStaticFrame(ctx, frame, testText());
  const row = frame.layout.rows.find((r) => r.track >= 0)!;
  const top = RULER_HEIGHT_CSS + row.yCss;
  const { yOf } = counterValueScale(model, row.track, row.heightCss);
  return { frame, ctx, row, y: (v: number) => top + yOf(v) };
}

function hover(model: Model, x: number): Hit {
  const { frame, row } = draw(model);
  const hit = hitTestFrame(frame, x, RULER_HEIGHT_CSS + row.yCss + row.heightCss / 2);
  if (!hit || hit === 'ruler') throw new Error('nothing hit');
  return hit;
}

/** Counter samples (time ns, value; NaN = no value) on one row over 0..4000 ns. */
function samplesModel(samples: [number, number][], counter?: CounterTrackInfo): Model {
  const b = builder();
  const p = b.process(1, 'p');
  const row = b.counterRow({ label: 'c', process: p, unit: 'u', counter });
  for (const [t, v] of samples) b.counter(row, t, v);
  b.setCaptureSpan(0, 4000);
  return b.finish();
}

/** The stroked counter line: its runs (each begun by a moveTo) up to the first stroke, as rounded points. */
function strokeRuns(ctx: RecordingCanvas): number[][][] {
  const runs: number[][][] = [];
  for (const c of ctx.calls) {
    if (c.op === 'stroke') break;
    if (c.op === 'moveTo') runs.push([]);
    if (c.op === 'moveTo' || c.op === 'lineTo') runs[runs.length - 1].push([Math.round(c.x), Math.round(c.y)]);
  }
  return runs;
}

/** The runs of every stroked path (points drawn after a stroke and before a fill belong to the fill). */
function allStrokeRuns(ctx: RecordingCanvas): number[][][] {
  const out: number[][][] = [];
  let current: number[][][] = [];
  for (const c of ctx.calls) {
    if (c.op === 'stroke') {
      out.push(...current);
      current = [];
    } else if (c.op === 'fill') current = [];
    else if (c.op === 'moveTo') current.push([[Math.round(c.x), Math.round(c.y)]]);
    else if (c.op === 'lineTo' && current.length > 0) current[current.length - 1].push([Math.round(c.x), Math.round(c.y)]);
  }
  return out;
}

const pathPoints = (ctx: RecordingCanvas) =>
  ctx.calls.filter((c) => c.op === 'lineTo' || c.op === 'moveTo').map((c) => [Math.round(c.x), Math.round(c.y)]);

describe('counter rows by interpolation', () => {
  it('steps until the next sample by default and holds the last value to the end of the capture', () => {
    const { ctx, y } = draw(counterModel());
    const points = pathPoints(ctx);
    expect(points).toContainEqual([100, Math.round(y(10))]);
    expect(points).toContainEqual([400, Math.round(y(20))]);
  });

  it('draws straight lines between samples when linear, and stops at the last sample', () => {
    const { ctx, y } = draw(counterModel({ interpolation: 'linear' }));
    const points = pathPoints(ctx);
    expect(points.slice(0, 3)).toEqual([
      [0, Math.round(y(10))],
      [0, Math.round(y(10))],
      [0, Math.round(y(10))],
    ]);
    // From (0, 10) straight to (100, 30): no point at (100, 10) as a step would have.
    expect(points).toContainEqual([100, Math.round(y(30))]);
    expect(points).not.toContainEqual([100, Math.round(y(10))]);
    expect(Math.max(...points.map((p) => p[0]))).toBe(200);
  });

  it('steps back to the previous sample when since-last', () => {
    const { ctx, y } = draw(counterModel({ interpolation: 'sinceLast' }));
    const points = pathPoints(ctx);
    // Between 0 and 1000 ns the value is the one sampled at 1000 ns.
    expect(points[0]).toEqual([0, Math.round(y(30))]);
    expect(points).toContainEqual([100, Math.round(y(30))]);
    expect(points).toContainEqual([100, Math.round(y(20))]);
    expect(Math.max(...points.map((p) => p[0]))).toBe(200);
  });

  it('draws the samples alone when point', () => {
    const { ctx, y } = draw(counterModel({ interpolation: 'point' }));
    expect(pathPoints(ctx)).toEqual([]);
    const dots = ctx.calls.filter((c) => c.op === 'fillRect' && c.w === 3);
    expect(dots.map((d) => [Math.round(d.x + 1), Math.round(d.y + 1)])).toEqual([
      [0, Math.round(y(10))],
      [100, Math.round(y(30))],
      [200, Math.round(y(20))],
    ]);
  });

  it('widens the value scale to the limits and draws them', () => {
    const plain = counterModel();
    const limited = counterModel({ min: -10, max: 100 });
    expect(counterValueScale(plain, 0, 40).top).toBe(30);
    expect(counterValueScale(limited, 0, 40).top).toBe(100);
    const { ctx, y } = draw(limited);
    const dashes = ctx.calls.filter((c) => c.op === 'moveTo' && c.x === 0).map((c) => Math.floor(c.y));
    expect(dashes).toEqual(expect.arrayContaining([Math.round(y(100)), Math.round(y(-10))]));
  });
});

describe('samples without a value (NaN: unavailable)', () => {
  const gap: [number, number][] = [
    [0, 10],
    [1000, NaN],
    [2000, 20],
  ];

  it('break a step line: nothing is drawn from the sample without a value to the next sample', () => {
    const { ctx, y } = draw(samplesModel(gap));
    const runs = strokeRuns(ctx);
    expect(runs.map((r) => [r[0], r[r.length - 1]])).toEqual([
      [
        [0, Math.round(y(10))],
        [100, Math.round(y(10))],
      ],
      [
        [200, Math.round(y(20))],
        [400, Math.round(y(20))],
      ],
    ]);
    expect(runs.flat().every(([, py]) => Number.isFinite(py))).toBe(true);
    // Each run is filled down to the zero line on its own: nothing between 100 and 200.
    const filled = pathPoints(ctx).filter(([x]) => x > 100 && x < 200);
    expect(filled).toEqual([]);
  });

  it('break a linear line on both sides of the sample without a value', () => {
    const model = samplesModel([[0, 10], [1000, 30], [2000, NaN], [3000, 20], [4000, 25]], { interpolation: 'linear' });
    const { ctx, y } = draw(model);
    const runs = strokeRuns(ctx);
    expect(runs.map((r) => [r[0][0], r[r.length - 1][0]])).toEqual([
      [0, 100],
      [300, 400],
    ]);
    expect(runs[0][runs[0].length - 1]).toEqual([100, Math.round(y(30))]);
    expect(runs[1][0]).toEqual([300, Math.round(y(20))]);
  });

  it('leave the step back from a since-last sample without a value empty, and draw no point for it', () => {
    const since = draw(samplesModel([[0, 10], [1000, 30], [2000, NaN], [3000, 20]], { interpolation: 'sinceLast' }));
    const xs = strokeRuns(since.ctx).map((r) => r.map(([x]) => x));
    // The step (1000, 2000] has no value: no run spans it.
    expect(xs.some((r) => Math.min(...r) < 200 && Math.max(...r) > 100)).toBe(false);
    expect(xs.some((r) => Math.min(...r) <= 200 && Math.max(...r) >= 300)).toBe(true);
    const point = draw(samplesModel(gap, { interpolation: 'point' }));
    const dots = point.ctx.calls.filter((c) => c.op === 'fillRect' && c.w === 3).map((d) => Math.round(d.x + 1));
    expect(dots).toEqual([0, 200]);
  });

  it('say "no value" on hover where the program gave none, and the value elsewhere', () => {
    const model = samplesModel(gap);
    expect(Object.fromEntries(tooltipContent(hover(model, 150), false).rows)).toMatchObject({ Value: 'no value (unavailable)', Since: '1 µs' });
    expect(Object.fromEntries(tooltipContent(hover(model, 50), false).rows).Value).toBe('10 u');
    // Between a sample with a value and one without, a linear row has no line and no value.
    const linear = samplesModel(gap, { interpolation: 'linear' });
    const rows = Object.fromEntries(tooltipContent(hover(linear, 40), false).rows);
    expect(rows).toMatchObject({ Value: 'no value (unavailable)', 'Nearest sample': '10 u at 0 ns' });
  });

  it('leave the value scale to the samples with a value', () => {
    expect(counterValueScale(samplesModel(gap), 0, 40).top).toBe(20);
    expect(counterValueScale(samplesModel([[0, NaN]]), 0, 40).top).toBe(1);
  });
});

describe('a collapsed counter group', () => {
  it('draws its counters as one track: each line on one shared scale in the group row', () => {
    const b = builder();
    const p = b.process(1, 'p');
    const used = b.counterRow({ label: 'used', process: p, unit: 'B', path: ['Counters', 'memory'] });
    const free = b.counterRow({ label: 'free', process: p, unit: 'B', path: ['Counters', 'memory'] });
    b.counter(used, 0, 10);
    b.counter(used, 2000, 40);
    b.counter(free, 0, 30);
    b.counter(free, 1000, NaN);
    b.counter(free, 3000, 20);
    b.setCaptureSpan(0, 4000);
    const model = b.finish();
    const open = testFrame([loaded(model)], { startNs: 0, endNs: 4000, widthCss: 400 });
    const group = open.layout.rows.find((r) => r.label === 'memory')!;
    const frame = testFrame([loaded(model)], { startNs: 0, endNs: 4000, widthCss: 400 }, { collapsed: { [group.key]: true } });
    const row = frame.layout.rows.find((r) => r.key === group.key)!;
    expect(row.collapsed).toBe(true);
    expect(frame.layout.rows.some((r) => r.label === 'used')).toBe(false);
    const ctx = new RecordingCanvas();
    drawStaticFrame(ctx, frame, testText());
    const top = RULER_HEIGHT_CSS + row.yCss;
    const runs = allStrokeRuns(ctx).filter((r) => r.every(([, y]) => y >= top && y <= top + row.heightCss));
    // used: one run; free: two runs around its gap. 40 (the largest value) at the top of the strip.
    expect(runs).toHaveLength(3);
    const ys = runs.flat().map(([, y]) => y);
    expect(Math.min(...ys)).toBe(Math.round(top + 6));
    const xs = runs.map((r) => [r[0][0], r[r.length - 1][0]]);
    expect(xs).toContainEqual([0, 100]);
    expect(xs).toContainEqual([300, 400]);
  });
});

describe('counter hover by interpolation', () => {
  it('shows the interpolated value and the nearest sample on a linear row', () => {
    const model = counterModel({ interpolation: 'linear', description: 'a gauge' });
    const rows = Object.fromEntries(tooltipContent(hover(model, 25), false).rows);
    expect(rows.Value).toBe('15 u');
    expect(rows.At).toBe('250 ns');
    expect(rows['Nearest sample']).toBe('10 u at 0 ns');
    expect(rows.About).toBe('a gauge');
  });

  it('shows the value of the sample that ends the step on a since-last row', () => {
    const model = counterModel({ interpolation: 'sinceLast' });
    const rows = Object.fromEntries(tooltipContent(hover(model, 150), false).rows);
    expect(rows).toMatchObject({ Value: '20 u', Until: '2 µs' });
    // After the last sample nothing is shown.
    const { frame, row } = draw(model);
    expect(hitTestFrame(frame, 300, RULER_HEIGHT_CSS + row.yCss + row.heightCss / 2)).not.toMatchObject({ kind: 'counter' });
  });

  it('shows a sample near the pointer on a point row, and its limits and kind', () => {
    const model = counterModel({ interpolation: 'point', valueType: 'delta', min: 0, max: 50 });
    const rows = Object.fromEntries(tooltipContent(hover(model, 101), false).rows);
    expect(rows).toMatchObject({ Change: '+30 u', Time: '1 µs', Kind: 'change since the previous sample', Limits: '0 u … 50 u' });
  });

  it('shows a change with the time it accrued over and the running total on a delta row', () => {
    const b = builder();
    const p = b.process(1, 'p');
    const delta = b.counterRow({ label: 'c', process: p, unit: 'u', counter: { valueType: 'delta', interpolation: 'sinceLast' } });
    const total = b.counterRow({ label: 'c (running total)', process: p, unit: 'u', counter: { valueType: 'deltaSinceStart', derived: 'runningTotal', source: 'c' } });
    for (const [t, v, sum] of [
      [0, 10, 10],
      [1000, -4, 6],
      [2000, 20, 26],
    ]) {
      b.counter(delta, t, v);
      b.counter(total, t, sum);
    }
    b.setCaptureSpan(0, 4000);
    const model = b.finish();
    const rows = Object.fromEntries(tooltipContent(hover(model, 150), false).rows);
    expect(rows).toMatchObject({ Change: '+20 u', Over: '1 µs – 2 µs', 'Running total': '26 u', Kind: 'change since the previous sample' });
    expect(Object.fromEntries(tooltipContent(hover(model, 50), false).rows)).toMatchObject({ Change: '-4 u', 'Running total': '6 u' });
  });
});
