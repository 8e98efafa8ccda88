import { describe, expect, it } from 'vitest';
import { builder } from '../../testkit/models/timelineModels.ts';
import { instanceOrdinal, nthInstance, offsetToAlign, rangeName } from './alignment.ts';
import { captureExtent, createViewerStore } from './viewerStore.ts';

/** A capture with "step" ranges starting at `first`, `first + every`, ... and one "setup" range. */
function steps(fileName: string, first: number, every: number, count: number) {
  const b = builder(fileName);
  const t = b.thread(1, 1, 'main');
  b.range(t, 0, first / 2, { name: 'setup' });
  for (let i = 0; i < count; i++) b.range(t, first + i * every, first + i * every + every / 2, { name: 'step' });
  return b.finish();
}

describe('alignment on a named range', () => {
  it('finds the N-th instance of a name by start time', () => {
    const m = steps('a.nvtxt', 1000, 500, 4);
    const third = nthInstance(m, 'step', 2);
    expect(rangeName(m, third)).toBe('step');
    expect(m.ranges.startNs[third]).toBe(2000);
    expect(instanceOrdinal(m, third)).toBe(2);
    expect(nthInstance(m, 'step', 4)).toBe(-1);
    expect(nthInstance(m, 'nothing', 0)).toBe(-1);
  });

  it('places the other capture so that the same instances start together', () => {
    const a = steps('a.nvtxt', 1000, 500, 4);
    const b = steps('b.nvtxt', 7000, 300, 4);
    const ref = { model: a, offsetNs: 100 };
    const second = nthInstance(a, 'step', 1);
    const offset = offsetToAlign(ref, second, b)!;
    expect(b.ranges.startNs[nthInstance(b, 'step', 1)] + offset).toBe(a.ranges.startNs[second] + 100);
    expect(offsetToAlign(ref, nthInstance(a, 'step', 3), steps('c.nvtxt', 0, 10, 2))).toBeNull();
  });
});

describe('store: several captures', () => {
  it('fits every capture as they finish loading, until the user moves the view', () => {
    const store = createViewerStore();
    store.getState().addCapture({ model: steps('a.nvtxt', 1000, 500, 4), decodeMs: 0 });
    const firstFit = store.getState().viewEndNs;
    store.getState().addCapture({ model: steps('b.nvtxt', 1000, 5000, 4), decodeMs: 0 });
    const s = store.getState();
    const extent = captureExtent(s.captures);
    expect(s.viewEndNs).toBeGreaterThan(firstFit);
    expect(s.viewStartNs).toBeLessThanOrEqual(extent.start);
    expect(s.viewEndNs).toBeGreaterThanOrEqual(extent.end);
    s.setView(0, 10);
    store.getState().addCapture({ model: steps('c.nvtxt', 1000, 50_000, 4), decodeMs: 0 });
    expect([store.getState().viewStartNs, store.getState().viewEndNs]).toEqual([0, 10]);
    store.getState().zoomToFit();
    expect(store.getState().viewFitted).toBe(true);
  });

  it('aligns the other captures on a range, marks them placed by hand, and resets', () => {
    const store = createViewerStore();
    const a = store.getState().addCapture({ model: steps('a.nvtxt', 1000, 500, 4), decodeMs: 0 });
    const b = store.getState().addCapture({ model: steps('b.nvtxt', 7000, 300, 4), decodeMs: 0 });
    const c = store.getState().addCapture({ model: steps('c.nvtxt', 0, 10, 1), decodeMs: 0 });
    const ref = store.getState().captures[0];
    const range = nthInstance(ref.model, 'step', 2);
    const missing = store.getState().alignOnRange(a, range);
    expect(missing).toEqual(['c.nvtxt']);
    const placed = store.getState().captures.find((x) => x.id === b)!;
    expect(placed.alignedByUser).toBe(true);
    expect(placed.model.ranges.startNs[nthInstance(placed.model, 'step', 2)] + placed.offsetNs).toBe(ref.model.ranges.startNs[range] + ref.offsetNs);
    expect(store.getState().captures.find((x) => x.id === c)!.alignedByUser).toBeUndefined();
    store.getState().setCaptureOffset(c, 12345);
    expect(store.getState().captures.find((x) => x.id === c)!.offsetNs).toBe(12345);
    store.getState().resetCaptureOffset(b);
    const reset = store.getState().captures.find((x) => x.id === b)!;
    expect(reset.alignedByUser).toBeUndefined();
    expect(reset.offsetNs).toBe(0);
  });
});
