/** Counter rows drawn and described by their NVTX counter semantics (interpolation, limits). */
import { describe, expect, it } from 'vitest';
import type { CounterTrackInfo, Model } from '../model/types.ts';
import { drawStaticFrame, hitTestFrame, RULER_HEIGHT_CSS } from './frame.ts';
import { counterValueScale } from './renderers/counterRow.ts';
import type { Hit } from './renderers/types.ts';
import { testFrame, testText } from './testing/frames.ts';
import { builder, loaded } from './testing/models.ts';
import { RecordingCanvas } from './testing/recordingCanvas.ts';
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
    expect(rows).toMatchObject({ Value: '30 u', Time: '1 µs', Kind: 'change since the previous sample', Limits: '0 u … 50 u' });
  });
});
