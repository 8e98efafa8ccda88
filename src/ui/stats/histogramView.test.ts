import { describe, expect, it } from 'vitest';
import { durationHistogram } from '../../analysis/histogram.ts';
import type { GroupInstances } from '../../analysis/rangeStats.ts';
import { bandInterval, bandOfDrag, bandPositions, binAtX, binOf, binsForCount, histogramScale, tallestBin } from './histogramView.ts';
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
