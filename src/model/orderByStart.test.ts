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

  it('equals the earlier one-function sort on rows like the captures\' (pairs of equal starts, odd ends, every span)', () => {
    const rnd = new Random(41);
    for (let trial = 0; trial < 200; trial++) {
      const n = rnd.chance(0.1) ? rnd.int(0, 5) : rnd.int(0, 4000);
      const span = [100, 1e6, 2 ** 33, 2 ** 50][trial % 4];
      const start = new Float64Array(n);
      const end = new Float64Array(n);
      // In end order (start/end rows arrive as they end), starts shortly before; some equal starts
      // in pairs and longer runs, some equal ends, now and then NaN, Infinity or -0.
      let t = 0;
      for (let i = 0; i < n; i++) {
        t += Math.floor(rnd.next() * (span / Math.max(1, n)));
        end[i] = t;
        start[i] = Math.max(0, t - Math.floor(rnd.next() * rnd.next() * span * 0.01));
        if (i > 0 && rnd.chance(0.1)) start[i] = start[i - rnd.int(1, Math.min(i, 3))];
        if (rnd.chance(0.05)) end[i] = end[Math.max(0, i - 1)];
        if (rnd.chance(0.005)) end[i] = rnd.pick([NaN, Infinity, -Infinity]);
        if (rnd.chance(0.005)) start[i] = -0;
      }
      if (rnd.chance(0.1) && n > 0) start[rnd.int(0, n - 1)] = NaN;
      for (const longest of [true, false]) {
        expect(Array.from(orderByStart(start, end, longest))).toEqual(Array.from(earlierOrderByStart(start, end, longest)));
      }
    }
  });
});

const EARLIER_DIGIT_BITS = 16;
const EARLIER_DIGITS = 1 << EARLIER_DIGIT_BITS;

/** The sort before its loops became functions and pairs of equal starts a comparison (kept to compare with). */
function earlierOrderByStart(start: ArrayLike<number>, end: ArrayLike<number>, longestFirst: boolean): Uint32Array {
  const n = start.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2) return order;
  const endSign = longestFirst ? -1 : 1;
  let sorted = true;
  let integral = true;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = start[i];
    if (s < min) min = s;
    if (s > max) max = s;
    if (!Number.isInteger(s)) integral = false;
    if (i > 0 && sorted) {
      const d = start[i - 1] - s;
      if (d > 0 || (d === 0 && endSign * (end[i - 1] - end[i]) > 0)) sorted = false;
    }
  }
  if (sorted) return order;
  if (!integral || max - min > Number.MAX_SAFE_INTEGER) {
    order.sort((a, b) => start[a] - start[b] || endSign * (end[a] - end[b]) || a - b);
    return order;
  }
  let from = order;
  let to = new Uint32Array(n);
  const count = new Uint32Array(EARLIER_DIGITS);
  const span = max - min;
  // Start minus the smallest as 32-bit halves, so that a digit is a shift and a mask.
  const lo = new Uint32Array(n);
  const hi = span >= 2 ** 32 ? new Uint32Array(n) : lo;
  for (let i = 0; i < n; i++) {
    const rel = start[i] - min;
    if (hi === lo) lo[i] = rel;
    else {
      const h = Math.floor(rel / 2 ** 32);
      hi[i] = h;
      lo[i] = rel - h * 2 ** 32;
    }
  }
  const passes = span < 2 ** 16 ? 1 : span < 2 ** 32 ? 2 : span < 2 ** 48 ? 3 : 4;
  for (let pass = 0; pass < passes; pass++) {
    const word = pass < 2 ? lo : hi;
    const shift = (pass & 1) * EARLIER_DIGIT_BITS;
    count.fill(0);
    // Counts do not depend on the order: read in index order.
    for (let i = 0; i < n; i++) count[(word[i] >>> shift) & (EARLIER_DIGITS - 1)]++;
    // A digit that is the same for every range orders nothing.
    if (count[(word[0] >>> shift) & (EARLIER_DIGITS - 1)] === n) continue;
    let acc = 0;
    for (let d = 0; d < EARLIER_DIGITS; d++) {
      const c = count[d];
      count[d] = acc;
      acc += c;
    }
    for (let k = 0; k < n; k++) {
      const i = from[k];
      to[count[(word[i] >>> shift) & (EARLIER_DIGITS - 1)]++] = i;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  // Equal starts keep index order (the sort is stable); order them by end.
  for (let k = 0; k < n; ) {
    let j = k + 1;
    while (j < n && start[from[j]] === start[from[k]]) j++;
    if (j - k > 1) from.subarray(k, j).sort((a, b) => endSign * (end[a] - end[b]) || a - b);
    k = j;
  }
  return from;
}
