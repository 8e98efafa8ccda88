import { describe, expect, it } from 'vitest';
import { durationHistogram, sameBins, sharedDurationHistograms } from './histogram.ts';

const sum = (values: Float64Array) => values.reduce((a, b) => a + b, 0);

describe('histograms of two series on one axis', () => {
  it('spans both series, so their bins are the same and every instance is counted once', () => {
    const base = [10, 20, 40, 80];
    const candidate = [100, 300, 1000, 5000, 9000];
    for (const scale of ['linear', 'log'] as const) {
      const [a, b] = sharedDurationHistograms([base, candidate], { bins: 12, scale });
      expect(sameBins(a, b)).toBe(true);
      expect(a.edges[0]).toBe(10);
      expect(a.edges[12]).toBe(9000);
      expect(sum(a.values)).toBe(4);
      expect(sum(b.values)).toBe(5);
      // The baseline sits at the short end, the candidate at the long end of the shared axis.
      expect(a.values[11]).toBe(0);
      expect(b.values[11]).toBeGreaterThan(0);
      // Each series binned alone would have used its own axis.
      expect(sameBins(durationHistogram(base, { bins: 12, scale }), durationHistogram(candidate, { bins: 12, scale }))).toBe(false);
    }
  });

  it('counts a series as it would be counted alone on the same axis', () => {
    const base = [3, 7, 7, 50, 51, 900];
    const candidate = [1, 2, 700, 2000];
    const [a, b] = sharedDurationHistograms([base, candidate], { bins: 9, scale: 'log', weight: 'time' });
    const aAlone = durationHistogram(base, { bins: 9, scale: 'log', weight: 'time', minNs: 1, maxNs: 2000 });
    const bAlone = durationHistogram(candidate, { bins: 9, scale: 'log', weight: 'time', minNs: 1, maxNs: 2000 });
    expect(Array.from(a.values)).toEqual(Array.from(aAlone.values));
    expect(Array.from(b.values)).toEqual(Array.from(bAlone.values));
    expect(sum(a.values)).toBe(base.reduce((x, y) => x + y));
  });

  it('starts a log axis at the smallest positive duration of either series, zeros in the first bin', () => {
    const [a, b] = sharedDurationHistograms([[0, 0, 400], [8, 80, 800]], { bins: 2, scale: 'log' });
    expect(sameBins(a, b)).toBe(true);
    expect(a.edges[0]).toBe(8);
    expect(a.edges[2]).toBe(800);
    expect(Array.from(a.values)).toEqual([2, 1]);
    expect(Array.from(b.values)).toEqual([1, 2]);
  });

  it('handles an empty series (a range only in one capture) and two empty ones', () => {
    const [a, b] = sharedDurationHistograms([[], [5, 6, 7]], { bins: 4 });
    expect(sameBins(a, b)).toBe(true);
    expect(sum(a.values)).toBe(0);
    expect(sum(b.values)).toBe(3);
    const [c, d] = sharedDurationHistograms([[], []], { bins: 4, scale: 'log' });
    expect(sameBins(c, d)).toBe(true);
    expect(sum(c.values) + sum(d.values)).toBe(0);
  });

  it('tells histograms on different axes apart', () => {
    const h = durationHistogram([1, 2, 3], { bins: 3 });
    expect(sameBins(h, durationHistogram([1, 2, 3], { bins: 3 }))).toBe(true);
    expect(sameBins(h, durationHistogram([1, 2, 3], { bins: 4 }))).toBe(false);
    expect(sameBins(h, durationHistogram([1, 2, 4], { bins: 3 }))).toBe(false);
    expect(sameBins(h, durationHistogram([1, 2, 3], { bins: 3, scale: 'log' }))).toBe(false);
  });
});
