import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { nearestRankIndex, percentile, percentileSorted, quantiles, quantilesInPlace, selectInPlace } from './quantiles.ts';
import { referenceQuantile } from '../../testkit/models/referenceStats.ts';

const PS = [0, 0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1];

function randomValues(rnd: Random, n: number): number[] {
  const kind = rnd.int(0, 3);
  return Array.from({ length: n }, () => {
    switch (kind) {
      case 0:
        return rnd.int(0, 5); // many ties
      case 1:
        return Math.round(rnd.logNormal(1000, 2));
      case 2:
        return rnd.next() * 1e9;
      default:
        return rnd.int(0, n); // permutation-like
    }
  });
}

describe('quantiles', () => {
  it('agree with a sort-based reference on random data', () => {
    const rnd = new Random(7);
    for (let trial = 0; trial < 300; trial++) {
      const n = trial < 200 ? rnd.int(1, 50) : rnd.int(500, 5000);
      const values = randomValues(rnd, n);
      const got = quantiles(values, PS);
      PS.forEach((p, i) => expect(got[i], `n=${n} p=${p}`).toBe(referenceQuantile(values, p)));
    }
  });

  it('handle sorted, reversed and constant inputs of selection-hostile sizes', () => {
    for (const n of [601, 1000, 4096, 20_000]) {
      const asc = Array.from({ length: n }, (_, i) => i);
      const desc = [...asc].reverse();
      const flat = new Array<number>(n).fill(42);
      const organ = asc.map((i) => Math.min(i, n - i));
      for (const values of [asc, desc, flat, organ]) {
        expect(quantiles(values, PS)).toEqual(PS.map((p) => referenceQuantile(values, p)));
      }
    }
  });

  it('uses the mean of the middle two as the median of an even count', () => {
    expect(percentile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(percentile([7], 0.5)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
    expect(percentileSorted([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
  });

  it('work on a slice and leave the rest alone', () => {
    const v = Float64Array.from([100, 5, 3, 9, 1, -100]);
    expect(quantilesInPlace(v, 1, 5, [0, 0.5, 1])).toEqual([1, 4, 9]);
    expect(v[0]).toBe(100);
    expect(v[5]).toBe(-100);
  });

  it('selection puts the k-th value in place with smaller values before it', () => {
    const rnd = new Random(3);
    const v = Float64Array.from({ length: 3000 }, () => rnd.int(0, 100));
    const sorted = Float64Array.from(v).sort();
    const k = 1234;
    expect(selectInPlace(v, 0, v.length, k)).toBe(sorted[k]);
    for (let i = 0; i < k; i++) expect(v[i]).toBeLessThanOrEqual(v[k]);
    for (let i = k + 1; i < v.length; i++) expect(v[i]).toBeGreaterThanOrEqual(v[k]);
  });

  it('picks instances by nearest rank', () => {
    expect(nearestRankIndex(100, 0.99)).toBe(98);
    expect(nearestRankIndex(100, 0.5)).toBe(49);
    expect(nearestRankIndex(1, 0.99)).toBe(0);
    expect(nearestRankIndex(10, 1)).toBe(9);
    expect(nearestRankIndex(10, 0)).toBe(0);
    expect(nearestRankIndex(0, 0.5)).toBe(-1);
  });
});
