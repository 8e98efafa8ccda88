/**
 * The N-th instance by start time among a group's instances (for "align at the N-th instance"),
 * without sorting the instances themselves: a comparator sort of a 1M-instance group took most of
 * a second, a numeric sort of their start times a fraction of that.
 */

/**
 * The `n`-th (1-based) of `ranges` (RangeIndex values) ordered by `startNs`, ties by index, or -1
 * when there are fewer than `n`.
 */
export function nthByStart(startNs: Float64Array, ranges: Int32Array, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > ranges.length) return -1;
  const starts = new Float64Array(ranges.length);
  for (let k = 0; k < ranges.length; k++) starts[k] = startNs[ranges[k]];
  starts.sort();
  const t = starts[n - 1];
  // Instances starting before t come first; among those starting at t, the lowest index first.
  let before = n - 1;
  while (before > 0 && starts[before - 1] === t) before--;
  const tied: number[] = [];
  for (let k = 0; k < ranges.length; k++) if (startNs[ranges[k]] === t) tied.push(ranges[k]);
  tied.sort((a, b) => a - b);
  return tied[n - 1 - before];
}
