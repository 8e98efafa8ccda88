import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { orderByStart } from './orderByStart.ts';

function reference(start: number[], end: number[], longestFirst: boolean): number[] {
  const s = longestFirst ? -1 : 1;
  return start.map((_, i) => i).sort((a, b) => start[a] - start[b] || s * (end[a] - end[b]) || a - b);
}

describe('orderByStart', () => {
  it('equals the comparator sort on random input with ties, both end orders, every span size', () => {
    const rnd = new Random(9);
    for (let trial = 0; trial < 60; trial++) {
      const n = rnd.int(0, 3000);
      const span = [10, 1e5, 2 ** 33, 2 ** 52][trial % 4];
      const start = Array.from({ length: n }, () => Math.floor(rnd.next() * span));
      // Ties on start, and on start and end.
      for (let i = 1; i < n; i++) if (rnd.chance(0.2)) start[i] = start[rnd.int(0, i - 1)];
      const end = start.map((s) => s + (rnd.chance(0.3) ? 5 : rnd.int(0, 1000)));
      for (const longest of [true, false]) {
        expect(Array.from(orderByStart(Float64Array.from(start), Float64Array.from(end), longest))).toEqual(reference(start, end, longest));
      }
    }
  });

  it('handles sorted input, negative and fractional starts', () => {
    expect(Array.from(orderByStart([1, 2, 2, 3], [5, 9, 4, 4], true))).toEqual([0, 1, 2, 3]);
    expect(Array.from(orderByStart([1, 2, 2, 3], [5, 9, 4, 4], false))).toEqual([0, 2, 1, 3]);
    expect(Array.from(orderByStart([-5, -10, 3], [0, 0, 4], true))).toEqual([1, 0, 2]);
    expect(Array.from(orderByStart([0.5, 0.25, 0.75], [1, 1, 1], true))).toEqual([1, 0, 2]);
  });
});
