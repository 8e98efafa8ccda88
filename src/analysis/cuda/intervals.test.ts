import { describe, expect, it } from 'vitest';
import { coverage } from './intervals.ts';

describe('coverage', () => {
  it('measures busy and overlapping time of unsorted half-open intervals', () => {
    // [0,10) [5,15) [20,30) [25,26) [40,40): busy 15 + 10, overlap 5 + 1; touching ends do not overlap.
    expect(coverage([20, 0, 5, 25, 40, 30], [30, 10, 15, 26, 40, 35])).toEqual({ busyNs: 30, overlapNs: 6 });
    expect(coverage([], [])).toEqual({ busyNs: 0, overlapNs: 0 });
    expect(coverage([0, 0, 0], [10, 10, 10])).toEqual({ busyNs: 10, overlapNs: 10 });
  });
});
