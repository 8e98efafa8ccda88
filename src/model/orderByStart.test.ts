import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { bucketOrder, orderByStart } from './orderByStart.ts';

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

  it('equals the comparator sort on rows like the captures\' (pairs of equal starts, odd ends, every span)', () => {
    const rnd = new Random(41);
    for (let trial = 0; trial < 200; trial++) {
      const n = rnd.chance(0.1) ? rnd.int(0, 5) : rnd.int(0, 4000);
      const span = [100, 1e6, 2 ** 33, 2 ** 50][trial % 4];
      const start = new Float64Array(n);
      const end = new Float64Array(n);
      // In end order (start/end rows arrive as they end), starts shortly before; some equal starts
      // in pairs and longer runs, some equal ends, now and then an infinite end or a -0 start. (A NaN
      // has no place in an order: the radix sort, its sorted-input check and a comparator sort may
      // each place it apart; only that the result is a permutation is checked for it.)
      let t = 0;
      for (let i = 0; i < n; i++) {
        t += Math.floor(rnd.next() * (span / Math.max(1, n)));
        end[i] = t;
        start[i] = Math.max(0, t - Math.floor(rnd.next() * rnd.next() * span * 0.01));
        if (i > 0 && rnd.chance(0.1)) start[i] = start[i - rnd.int(1, Math.min(i, 3))];
        if (rnd.chance(0.05)) end[i] = end[Math.max(0, i - 1)];
        if (rnd.chance(0.005)) end[i] = rnd.pick([Infinity, -Infinity]);
        if (rnd.chance(0.005)) start[i] = -0;
      }
      for (const longest of [true, false]) {
        expect(Array.from(orderByStart(start, end, longest))).toEqual(Array.from(comparatorOrder(start, end, longest)));
      }
      if (n > 0) {
        start[rnd.int(0, n - 1)] = NaN;
        end[rnd.int(0, n - 1)] = NaN;
        expect(Array.from(orderByStart(start, end, true)).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      }
    }
  });
});

describe('bucketOrder', () => {
  it('gives the stable order by start where starts spread, and steps aside where they crowd', () => {
    const rnd = new Random(43);
    let taken = 0;
    let refused = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = rnd.int(1, 3000);
      const span = rnd.pick([50, 1e4, 2 ** 33, 2 ** 52]);
      // Spread (uniform, in end order with long ranges), crowded into a few bursts, or one far
      // outlier that puts every other start into the first bucket.
      const shape = rnd.pick(['uniform', 'endOrder', 'bursts', 'outlier']);
      const start = new Float64Array(n);
      let t = 0;
      for (let i = 0; i < n; i++) {
        if (shape === 'uniform') start[i] = Math.floor(rnd.next() * span);
        else if (shape === 'endOrder') {
          t += Math.floor(rnd.next() * (span / n));
          start[i] = Math.max(0, t - Math.floor(rnd.next() ** 4 * span * 0.2));
        } else if (shape === 'bursts') start[i] = rnd.int(0, 3) * Math.floor(span / 4) + rnd.int(0, 20);
        else start[i] = i === n - 1 ? span : rnd.int(0, 1000);
        if (i > 0 && rnd.chance(0.1)) start[i] = start[rnd.int(0, i - 1)];
      }
      let min = Infinity;
      let max = -Infinity;
      for (const s of start) {
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
      const order = bucketOrder(start, min, max - min);
      const stable = Array.from({ length: n }, (_, i) => i).sort((a, b) => start[a] - start[b] || a - b);
      if (order === undefined) refused++;
      else {
        taken++;
        expect(Array.from(order)).toEqual(stable);
      }
      const end = start.map((s) => s + rnd.int(0, 3) * 7);
      for (const longest of [true, false]) expect(Array.from(orderByStart(start, end, longest))).toEqual(Array.from(comparatorOrder(start, end, longest)));
    }
    expect(taken).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(20);
  });
});

/**
 * The order `orderByStart` stands for: start, then end (longest or shortest first), then index, as
 * the comparator sort it falls back to gives it.
 */
function comparatorOrder(start: ArrayLike<number>, end: ArrayLike<number>, longestFirst: boolean): Uint32Array {
  const endSign = longestFirst ? -1 : 1;
  const order = Uint32Array.from({ length: start.length }, (_, i) => i);
  return order.sort((a, b) => start[a] - start[b] || endSign * (end[a] - end[b]) || a - b);
}
