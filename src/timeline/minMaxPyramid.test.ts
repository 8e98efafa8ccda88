import { describe, expect, it } from 'vitest';
import { MinMaxPyramid } from './minMaxPyramid.ts';
import { seededRandom } from '../../testkit/gen/random.ts';

/** 20 random index ranges of `values`: the pyramid's min and max equal brute force's (NaN left out). */
function checkQueries(values: Float64Array, random: () => number): void {
  const pyramid = new MinMaxPyramid(values);
  const n = values.length;
  for (let q = 0; q < 20; q++) {
    const lo = Math.floor(random() * n);
    const hi = lo + 1 + Math.floor(random() * (n - lo));
    let min = Infinity;
    let max = -Infinity;
    for (let i = lo; i < hi; i++) {
      if (Number.isNaN(values[i])) continue;
      min = Math.min(min, values[i]);
      max = Math.max(max, values[i]);
    }
    expect(pyramid.query(lo, hi)).toEqual([min, max]);
  }
}

describe('MinMaxPyramid', () => {
  it('gives the min and max of any index range (property, against brute force)', () => {
    const random = seededRandom(21);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 300);
      // Integers: exact in the Float32 summary levels.
      const values = Float64Array.from({ length: n }, () => Math.round((random() - 0.5) * 1e6));
      checkQueries(values, random);
    }
  });

  it('leaves NaN samples (no value) out of every min and max (property, against brute force)', () => {
    const random = seededRandom(5);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 200);
      const values = Float64Array.from({ length: n }, () => (random() < 0.3 ? NaN : Math.round((random() - 0.5) * 1e6)));
      checkQueries(values, random);
    }
    expect(new MinMaxPyramid(new Float64Array([NaN, NaN, NaN])).query(0, 3)).toEqual([Infinity, -Infinity]);
  });

  it('returns an empty interval for an empty range', () => {
    expect(new MinMaxPyramid(new Float64Array([1, 2, 3])).query(2, 2)).toEqual([Infinity, -Infinity]);
  });
});
