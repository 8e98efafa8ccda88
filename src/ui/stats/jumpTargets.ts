/** Instances to jump to from a per-name detail: the slowest, the median and the P99 one. */
import type { GroupInstances } from '../../analysis/rangeStats.ts';
import { summarizeSorted, type DistributionSummary } from '../../analysis/histogram.ts';

export interface JumpTargets {
  /** RangeIndex of each target, -1 when there are no instances. */
  slowest: number;
  median: number;
  p99: number;
}

export function jumpTargets(instances: GroupInstances, summary: DistributionSummary = summarizeSorted(instances.durations)): JumpTargets {
  const at = (position: number) => (position >= 0 && position < instances.ranges.length ? instances.ranges[position] : -1);
  return { slowest: at(summary.slowestIndex), median: at(summary.medianIndex), p99: at(summary.p99Index) };
}

/**
 * Positions of the instance list in display order: by duration (longest first) or by start time.
 * `positions` index into `instances` (a band's run, or all of them).
 */
export function listOrder(
  instances: GroupInstances,
  begin: number,
  end: number,
  order: 'duration' | 'start',
  startNs: ArrayLike<number>,
): Int32Array {
  const out = new Int32Array(Math.max(0, end - begin));
  for (let k = 0; k < out.length; k++) out[k] = end - 1 - k;
  if (order === 'start') out.sort((a, b) => startNs[instances.ranges[a]] - startNs[instances.ranges[b]] || a - b);
  return out;
}
