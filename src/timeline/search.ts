/** Searches over sorted time columns used by drawing and hit testing. */

/**
 * First index in [lo, hi) whose value is >= x, for a non-decreasing column, searching outward
 * from `lo` (exponential then binary search). Costs O(log distance) instead of O(log n): drawing
 * skips ahead by about one pixel column at a time, usually a short distance.
 */
export function gallopLowerBound(values: ArrayLike<number>, x: number, lo: number, hi: number): number {
  if (lo >= hi || values[lo] >= x) return lo;
  let bound = 1;
  while (lo + bound < hi && values[lo + bound] < x) bound *= 2;
  let a = lo + (bound >> 1) + 1;
  let b = Math.min(lo + bound, hi);
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (values[mid] < x) a = mid + 1;
    else b = mid;
  }
  return a;
}
