import { describe, expect, it } from 'vitest';
import { durationHistogram, sharedDurationHistograms } from '../../analysis/histogram.ts';
import type { GroupInstances } from '../../analysis/rangeStats.ts';
import {
  bandInterval,
  bandOfDrag,
  bandPositions,
  barHeight,
  binAtX,
  binOf,
  binShare,
  binsForCount,
  histogramScale,
  stepOutline,
  tallestBin,
  tallestBinOf,
} from './histogramView.ts';
import { jumpTargets, listOrder } from './jumpTargets.ts';

/** Deterministic pseudo-random durations (xorshift), log-normal-ish, sorted ascending. */
function durations(n: number, seed: number): Float64Array {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const out = Float64Array.from({ length: n }, () => Math.round(1000 * Math.exp(4 * next())));
  return out.sort();
}

describe('histogram bands', () => {
  it('bins every duration where durationHistogram counted it', () => {
    for (const scale of ['linear', 'log'] as const) {
      const d = durations(500, 7);
      const h = durationHistogram(d, { bins: 37, scale });
      const counts = new Float64Array(37);
      for (const v of d) counts[binOf(h, v)]++;
      expect(Array.from(counts)).toEqual(Array.from(h.values));
    }
  });

  it('selects exactly the instances the dragged bars count, on either axis and drag direction', () => {
    for (const scale of ['linear', 'log'] as const) {
      for (let seed = 1; seed <= 20; seed++) {
        const d = durations(300, seed);
        const h = durationHistogram(d, { bins: 40, scale });
        const width = 400;
        const x0 = (seed * 37) % width;
        const x1 = (seed * 91) % width;
        const band = bandOfDrag(h, x1, x0, width);
        const [a, b] = bandPositions(h, d, band);
        let expected = 0;
        for (let k = band.first; k <= band.last; k++) expected += h.values[k];
        expect(b - a).toBe(expected);
        for (let i = a; i < b; i++) expect(binOf(h, d[i])).toBeGreaterThanOrEqual(band.first);
        for (let i = a; i < b; i++) expect(binOf(h, d[i])).toBeLessThanOrEqual(band.last);
      }
    }
  });

  it('maps pixels to bins and durations on a log axis', () => {
    // Three bins of one decade each.
    const h = durationHistogram([10, 100, 1000, 10000], { bins: 3, scale: 'log' });
    expect(Array.from(h.values)).toEqual([1, 1, 2]);
    expect(binAtX(h, 0, 200)).toBe(0);
    expect(binAtX(h, 70, 200)).toBe(1);
    expect(binAtX(h, 199.9, 200)).toBe(2);
    expect(binAtX(h, 260, 200)).toBe(2);
    const x = histogramScale(h, 300);
    expect(x(100)).toBeCloseTo(100);
    expect(x.invert(200)).toBeCloseTo(1000);
    const band = bandInterval(h, { first: 1, last: 1 });
    expect(band.fromNs).toBeCloseTo(100);
    expect(band.toNs).toBeCloseTo(1000);
    expect(tallestBin(h)).toBe(2);
    expect(tallestBin(durationHistogram([], { bins: 3 }))).toBe(1);
  });
});

describe('bins for a count', () => {
  it('grows with the square root of the count, within 8 and what the width allows', () => {
    expect(binsForCount(1, 100)).toBe(8);
    expect(binsForCount(40, 100)).toBe(13);
    expect(binsForCount(525, 100)).toBe(46);
    expect(binsForCount(1e6, 100)).toBe(100);
    expect(binsForCount(1e6, 5)).toBe(5);
  });
});

describe('jump targets and the instance list', () => {
  // Ranges 40..49 with durations 1..10 (range 40 + k lasts k + 1).
  const instances: GroupInstances = {
    ranges: Int32Array.from({ length: 10 }, (_, k) => 40 + k),
    durations: Float64Array.from({ length: 10 }, (_, k) => k + 1),
  };

  it('names the slowest, the median and the P99 instance', () => {
    expect(jumpTargets(instances)).toEqual({ slowest: 49, median: 44, p99: 49 });
    const many: GroupInstances = {
      ranges: Int32Array.from({ length: 1000 }, (_, k) => k),
      durations: Float64Array.from({ length: 1000 }, (_, k) => k),
    };
    const t = jumpTargets(many);
    expect(t.slowest).toBe(999);
    expect(Math.abs(t.median - 500)).toBeLessThanOrEqual(1);
    expect(Math.abs(t.p99 - 989)).toBeLessThanOrEqual(1);
    expect(jumpTargets({ ranges: new Int32Array(0), durations: new Float64Array(0) })).toEqual({ slowest: -1, median: -1, p99: -1 });
  });

  it('lists a band longest first, or by start time', () => {
    expect(Array.from(listOrder(instances, 2, 6, 'duration', []))).toEqual([5, 4, 3, 2]);
    // Start times run against the durations: the longest starts first.
    const startNs: number[] = [];
    for (let k = 0; k < 10; k++) startNs[40 + k] = 1000 - k;
    expect(Array.from(listOrder(instances, 2, 6, 'start', startNs))).toEqual([5, 4, 3, 2]);
    for (let k = 0; k < 10; k++) startNs[40 + k] = k;
    expect(Array.from(listOrder(instances, 2, 6, 'start', startNs))).toEqual([2, 3, 4, 5]);
  });
});

describe('two series overlaid', () => {
  const base = durations(300, 7);
  const candidate = durations(500, 11).map((d) => d * 1.4);
  const [a, b] = sharedDurationHistograms([base, candidate], { bins: 30, scale: 'log' });

  it('draws both on one vertical scale: the taller series sets it', () => {
    expect(tallestBinOf([a, b])).toBe(Math.max(tallestBin(a), tallestBin(b)));
    expect(tallestBinOf([durationHistogram([], { bins: 3 })])).toBe(1);
    expect(barHeight(0, 10, 80)).toBe(0);
    expect(barHeight(10, 10, 80)).toBe(80);
    // A lone instance under a tall bar still gets 2 px.
    expect(barHeight(1, 1000, 80)).toBe(2);
  });

  it('outlines the second series as steps over the same bins as the bars', () => {
    const top = tallestBinOf([a, b]);
    const pts = stepOutline(b, top, 300, 87, 76);
    expect(pts.length).toBe(2 * (2 * 30 + 2));
    expect([pts[0], pts[1]]).toEqual([0, 87]);
    expect([pts[pts.length - 2], pts[pts.length - 1]]).toEqual([300, 87]);
    for (let bin = 0; bin < 30; bin++) {
      // Bin b's top spans exactly the bar of bin b, at the bar's height.
      const [x0, y0, x1, y1] = pts.slice(4 * bin + 2, 4 * bin + 6);
      expect(x0).toBeCloseTo(bin * 10, 9);
      expect(x1).toBeCloseTo((bin + 1) * 10, 9);
      expect(y0).toBe(y1);
      expect(87 - y0).toBeCloseTo(barHeight(b.values[bin], top, 76), 9);
      // Its riser starts where the previous top ended.
      expect(pts[4 * bin]).toBeCloseTo(x0, 9);
    }
  });

  it('reads a bin of each series for the hover: value and share of its own total', () => {
    let sumA = 0;
    let sumB = 0;
    for (let bin = 0; bin < 30; bin++) {
      const sa = binShare(a, bin);
      const sb = binShare(b, bin);
      expect(sa.value).toBe(a.values[bin]);
      expect(sb.value).toBe(b.values[bin]);
      sumA += sa.percent;
      sumB += sb.percent;
    }
    expect(sumA).toBeCloseTo(100, 9);
    expect(sumB).toBeCloseTo(100, 9);
    expect(binShare(durationHistogram([], { bins: 2 }), 0)).toEqual({ value: 0, percent: 0 });
  });

  it('a band on the shared axis picks each series\' instances in the same durations', () => {
    const band = bandOfDrag(a, 100, 200, 300);
    const { fromNs, toNs } = bandInterval(a, band);
    expect(bandInterval(b, band)).toEqual({ fromNs, toNs });
    for (const [h, sorted] of [
      [a, base],
      [b, candidate],
    ] as const) {
      const [begin, end] = bandPositions(h, sorted, band);
      let expected = 0;
      for (let bin = band.first; bin <= band.last; bin++) expected += h.values[bin];
      expect(end - begin).toBe(expected);
      for (let k = begin; k < end; k++) {
        expect(sorted[k]).toBeGreaterThanOrEqual(fromNs);
        expect(sorted[k]).toBeLessThanOrEqual(toNs);
      }
    }
  });
});
