/** `sortedOrder` (counters, marks, push/pop events by time) against the comparator sort it replaced. */
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { sortedOrder } from './rowLayout.ts';

/** The earlier `sortedOrder`: a stable comparator sort, identity when already sorted. */
function earlierSortedOrder(t: Float64Array): Uint32Array {
  const n = t.length;
  const order = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && t[i] < t[i - 1]) sorted = false;
  }
  if (!sorted) order.sort((a, b) => t[a] - t[b] || a - b);
  return order;
}

describe('sortedOrder', () => {
  it('equals the comparator sort on random times: ties, sorted runs, every span, fractions, NaN, infinities, -0', () => {
    const rnd = new Random(77);
    for (let trial = 0; trial < 300; trial++) {
      const n = rnd.chance(0.1) ? rnd.int(0, 4) : rnd.int(0, 3000);
      const span = [10, 1e6, 2 ** 35, 2 ** 53][trial % 4];
      const t = new Float64Array(n);
      const nearlySorted = rnd.chance(0.5);
      let at = 0;
      for (let i = 0; i < n; i++) {
        at += Math.floor(rnd.next() * (span / Math.max(1, n)));
        t[i] = nearlySorted && !rnd.chance(0.02) ? at : Math.floor(rnd.next() * span) - (rnd.chance(0.1) ? span / 2 : 0);
        if (i > 0 && rnd.chance(0.1)) t[i] = t[rnd.int(0, i - 1)];
      }
      if (n > 0 && rnd.chance(0.15)) t[rnd.int(0, n - 1)] = rnd.pick([NaN, Infinity, -Infinity, -0, 0.5]);
      expect(Array.from(sortedOrder(t))).toEqual(Array.from(earlierSortedOrder(t)));
    }
  });
});
