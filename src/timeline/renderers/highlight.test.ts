import { describe, expect, it } from 'vitest';
import { builder, loaded } from '../../../testkit/models/timelineModels.ts';
import { RecordingCanvas } from '../../../testkit/canvas/recordingCanvas.ts';
import { testFrame } from '../../../testkit/canvas/testFrames.ts';
import { buildHighlightIndex, drawHighlights, highlightColor, highlightsInWindow } from './highlight.ts';
import { RULER_HEIGHT_CSS } from './ruler.ts';

/** Ten 10 ns ranges every 100 ns on one thread, and a long one (500 ns) at 1000 on another. */
function model() {
  const b = builder();
  const t = b.thread(1, 1, 'main');
  const u = b.thread(1, 2, 'other');
  for (let k = 0; k < 10; k++) b.range(t, k * 100, k * 100 + 10, { name: 'tick' });
  b.range(u, 1000, 1500, { name: 'long' });
  return b.finish();
}

describe('highlight index', () => {
  const m = model();
  const all = Int32Array.from({ length: m.ranges.startNs.length }, (_, i) => i);

  it('finds the instances meeting a window, including long ones that started before it', () => {
    const index = buildHighlightIndex(1, m, 0, all.slice().reverse());
    const [a, b] = highlightsInWindow(index, 1200, 1300);
    const hits = Array.from(index.ranges.subarray(a, b)).filter((r) => m.ranges.endNs[r] >= 1200);
    expect(hits.map((r) => m.ranges.startNs[r])).toEqual([1000]);
    const [c, d] = highlightsInWindow(index, 250, 420);
    const inWindow = Array.from(index.ranges.subarray(c, d)).filter((r) => m.ranges.endNs[r] >= 250);
    expect(inWindow.map((r) => m.ranges.startNs[r])).toEqual([300, 400]);
  });

  it('ignores indices outside the model', () => {
    const index = buildHighlightIndex(1, m, 0, Int32Array.from([0, -1, 999]));
    expect(Array.from(index.ranges)).toEqual([0]);
  });
});

describe('drawHighlights', () => {
  it('outlines the instances in view and ticks the ruler for each', () => {
    const m = model();
    const capture = loaded(m, 3);
    const frame = testFrame([capture], { startNs: 0, endNs: 1000, widthCss: 1000 });
    const picked = Int32Array.from([0, 1, 2].map((k) => Array.from(m.ranges.startNs).indexOf(k * 100)));
    const ctx = new RecordingCanvas();
    drawHighlights(ctx, frame, buildHighlightIndex(3, m, 0, picked));
    const color = highlightColor(false);
    const ticks = ctx.calls.filter((c) => c.op === 'fillRect' && c.y === RULER_HEIGHT_CSS - 4 && c.fillStyle === color);
    expect(ticks.map((c) => c.x)).toEqual([0, 100, 200]);
    const outlines = ctx.calls.filter((c) => c.op === 'strokeRect' && c.strokeStyle === color);
    expect(outlines.map((c) => c.x + 1)).toEqual([0, 100, 200]);
    expect(outlines.every((c) => c.y > RULER_HEIGHT_CSS)).toBe(true);
  });

  it('ticks instances whose row is collapsed, without outlining them', () => {
    const m = model();
    const capture = loaded(m, 3);
    const frame = testFrame([capture], { startNs: 0, endNs: 2000, widthCss: 1000 }, { collapsed: { '3': true } });
    const long = Array.from(m.ranges.startNs).indexOf(1000);
    const ctx = new RecordingCanvas();
    drawHighlights(ctx, frame, buildHighlightIndex(3, m, 0, Int32Array.from([long])));
    expect(ctx.calls.filter((c) => c.op === 'strokeRect')).toEqual([]);
    expect(ctx.calls.filter((c) => c.op === 'fillRect').map((c) => [c.x, c.w])).toEqual([[500, 250]]);
  });
});
