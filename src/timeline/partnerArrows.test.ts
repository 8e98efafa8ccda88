import { describe, expect, it } from 'vitest';
import { rangeName } from '../model/query.ts';
import type { Model } from '../model/types.ts';
import { partnerArrows } from './correlation.ts';
import { locateRange } from './frame.ts';
import { drawOverlay } from './renderers/overlay.ts';
import { arrowSegments, clipSegment } from './renderers/partnerArrows.ts';
import { testFrame } from '../../testkit/canvas/testFrames.ts';
import { builder, loaded } from '../../testkit/models/timelineModels.ts';
import { RecordingCanvas } from '../../testkit/canvas/recordingCanvas.ts';

/** launchA started kernelA and copyA; sync launched nothing. */
function cudaModel(): Model {
  const b = builder('c.json');
  b.process(9, 'trainer');
  const t = b.thread(9, 90, 'main');
  const api = b.customRow({ kind: 'api', label: 'CUDA Runtime API', process: 0, thread: t });
  const s7 = b.customRow({ kind: 'gpu', label: 'Stream 7', process: 0, path: ['CUDA', 'GPU 0'] });
  const s9 = b.customRow({ kind: 'gpu', label: 'Stream 9', process: 0, path: ['CUDA', 'GPU 0'] });
  b.rowRange(api, 1_000, 2_000, { name: 'launchA' }, t, 1);
  b.rowRange(api, 5_000, 6_000, { name: 'sync' }, t);
  b.rowRange(s7, 2_500, 7_500, { name: 'kernelA' }, -1, 1);
  b.rowRange(s9, 3_000, 3_500, { name: 'copyA' }, -1, 1);
  return b.finish();
}

const named = (m: Model, name: string) => {
  for (let r = 0; r < m.ranges.startNs.length; r++) if (rangeName(m, r) === name) return r;
  throw new Error(name);
};

describe('launch → GPU work arrows', () => {
  const m = cudaModel();
  const frame = testFrame([loaded(m)], { startNs: 0, endNs: 10_000, widthCss: 1000 });
  const [launchA, kernelA, copyA] = ['launchA', 'kernelA', 'copyA'].map((n) => named(m, n));

  it('go from the call to each piece of its work, whichever end is selected', () => {
    expect(partnerArrows(m, launchA).sort()).toEqual([
      [launchA, kernelA],
      [launchA, copyA],
    ].sort());
    // Selecting a kernel: only the arrow from its call (the call's other work is outlined).
    expect(partnerArrows(m, kernelA)).toEqual([[launchA, kernelA]]);
    expect(partnerArrows(m, named(m, 'sync'))).toEqual([]);
  });

  it('start at the call and end at the work on screen', () => {
    const [seg] = arrowSegments(frame, { kind: 'range', capture: 1, index: kernelA });
    const call = locateRange(frame, 1, launchA)!;
    const kernel = locateRange(frame, 1, kernelA)!;
    // The call (1-2 µs) ends before the kernel (2.5 µs) starts: from its end.
    expect(seg).toEqual({ x0: call.x1, y0: call.y + call.h / 2, x1: kernel.x0, y1: kernel.y + kernel.h / 2 });
  });

  it('keep their direction when an end lies far off screen', () => {
    expect(clipSegment({ x0: -3000, y0: 0, x1: 100, y1: 310 }, -1000, 2000)).toEqual({ x0: -1000, y0: 200, x1: 100, y1: 310 });
    expect(clipSegment({ x0: -3000, y0: 0, x1: -2000, y1: 10 }, -1000, 2000)).toBeNull();
  });

  it('are drawn on the overlay (a line and a head per arrow)', () => {
    const ctx = new RecordingCanvas();
    drawOverlay(ctx, frame, { pointer: null, hover: null, selection: { kind: 'range', capture: 1, index: launchA }, span: null });
    const fills = ctx.calls.filter((c) => c.op === 'fill').length;
    expect(fills).toBeGreaterThanOrEqual(2);
    const none = new RecordingCanvas();
    drawOverlay(none, frame, { pointer: null, hover: null, selection: { kind: 'range', capture: 1, index: named(m, 'sync') }, span: null });
    expect(none.calls.filter((c) => c.op === 'fill').length).toBe(0);
  });
});

describe('flow arrows', () => {
  it('are drawn from and to the selected range', () => {
    const b = builder('f.json');
    const t1 = b.thread(1, 1, 'a');
    const t2 = b.thread(1, 2, 'b');
    b.range(t1, 0, 1_000, { name: 'send' });
    b.range(t2, 2_000, 3_000, { name: 'receive' });
    b.flow(t1, 500, t2, 2_000);
    const m = b.finish();
    const frame = testFrame([loaded(m)], { startNs: 0, endNs: 4_000, widthCss: 800 });
    const [send, receive] = ['send', 'receive'].map((n) => named(m, n));
    for (const selected of [send, receive]) {
      const [seg] = arrowSegments(frame, { kind: 'range', capture: 1, index: selected });
      const from = locateRange(frame, 1, send)!;
      const to = locateRange(frame, 1, receive)!;
      expect(seg).toEqual({ x0: from.x1, y0: from.y + from.h / 2, x1: to.x0, y1: to.y + to.h / 2 });
    }
  });
});
