/**
 * Duration distributions for the per-name detail: a histogram over linear or logarithmic bins,
 * counting instances or summing their time, and a summary (mean, sigma, P50/P90/P99/P99.9 and the
 * instances to jump to) of durations already sorted (as `rangeInstances` returns them).
 */
import { lowerBound, upperBound } from '../model/query.ts';
import { nearestRankIndex, percentileSorted } from './quantiles.ts';

export interface HistogramOptions {
  /** Number of bins (default 50). */
  bins?: number;
  /** Bin spacing (default 'linear'). Log bins start at the smallest positive value (at least 1 ns). */
  scale?: 'linear' | 'log';
  /** What a bin holds: the number of instances (default) or the sum of their durations. */
  weight?: 'count' | 'time';
  /** Axis range; defaults to the data's min and max. Values outside go to the first / last bin. */
  minNs?: number;
  maxNs?: number;
}

export interface Histogram {
  scale: 'linear' | 'log';
  weight: 'count' | 'time';
  /** bins + 1 bin edges, ascending; bin b is [edges[b], edges[b + 1]) (the last one closed). */
  edges: Float64Array;
  /** Count or summed time per bin. */
  values: Float64Array;
}

export function durationHistogram(durations: ArrayLike<number>, options: HistogramOptions = {}): Histogram {
  const bins = Math.max(1, Math.floor(options.bins ?? 50));
  const scale = options.scale ?? 'linear';
  const weight = options.weight ?? 'count';
  const n = durations.length;
  let lo = options.minNs ?? Infinity;
  let hi = options.maxNs ?? -Infinity;
  let minPositive = Infinity;
  for (let i = 0; i < n; i++) {
    const d = durations[i];
    if (options.minNs === undefined && d < lo) lo = d;
    if (options.maxNs === undefined && d > hi) hi = d;
    if (d > 0 && d < minPositive) minPositive = d;
  }
  if (!Number.isFinite(lo)) lo = 0;
  if (!Number.isFinite(hi)) hi = lo;
  const edges = new Float64Array(bins + 1);
  const values = new Float64Array(bins);
  if (scale === 'log') {
    lo = Math.max(1, lo > 0 ? lo : Number.isFinite(minPositive) ? minPositive : 1);
    if (hi <= lo) hi = lo * 10;
    const ratio = Math.log(hi / lo);
    for (let b = 0; b <= bins; b++) edges[b] = lo * Math.exp((ratio * b) / bins);
    edges[bins] = hi;
    for (let i = 0; i < n; i++) {
      const d = durations[i];
      const b = d <= lo ? 0 : Math.floor((Math.log(d / lo) / ratio) * bins);
      values[b < 0 ? 0 : b >= bins ? bins - 1 : b] += weight === 'count' ? 1 : d;
    }
  } else {
    if (hi <= lo) hi = lo + 1;
    const width = (hi - lo) / bins;
    for (let b = 0; b <= bins; b++) edges[b] = lo + width * b;
    edges[bins] = hi;
    for (let i = 0; i < n; i++) {
      const d = durations[i];
      const b = Math.floor((d - lo) / width);
      values[b < 0 ? 0 : b >= bins ? bins - 1 : b] += weight === 'count' ? 1 : d;
    }
  }
  return { scale, weight, edges, values };
}

/**
 * Histograms of several duration series on one axis (a comparison's baseline and candidate): the
 * axis spans every series, so all share the same edges and bin b means the same durations in each.
 * A log axis starts at the smallest positive duration of any series (each series' zeros go to the
 * first bin), so no series can move the axis on its own.
 */
export function sharedDurationHistograms(series: readonly ArrayLike<number>[], options: Omit<HistogramOptions, 'minNs' | 'maxNs'> = {}): Histogram[] {
  let lo = Infinity;
  let hi = -Infinity;
  let minPositive = Infinity;
  for (const durations of series) {
    for (let i = 0; i < durations.length; i++) {
      const d = durations[i];
      if (d < lo) lo = d;
      if (d > hi) hi = d;
      if (d > 0 && d < minPositive) minPositive = d;
    }
  }
  // No duration at all: every series gets durationHistogram's default axis, which is the same.
  if (!Number.isFinite(lo)) return series.map((durations) => durationHistogram(durations, options));
  if (options.scale === 'log') lo = Math.max(1, Number.isFinite(minPositive) ? minPositive : 1);
  return series.map((durations) => durationHistogram(durations, { ...options, minNs: lo, maxNs: hi }));
}

/** Whether histograms share their bins (same scale and edges), so they can be drawn over each other. */
export function sameBins(a: Histogram, b: Histogram): boolean {
  if (a.scale !== b.scale || a.edges.length !== b.edges.length) return false;
  for (let i = 0; i < a.edges.length; i++) if (a.edges[i] !== b.edges[i]) return false;
  return true;
}

export interface DistributionSummary {
  count: number;
  totalNs: number;
  meanNs: number;
  /** Sample standard deviation (n - 1); 0 for one value. */
  stdDevNs: number;
  minNs: number;
  maxNs: number;
  p50Ns: number;
  p90Ns: number;
  p99Ns: number;
  p999Ns: number;
  /** Positions (in the sorted input) of the instances to jump to; -1 when empty. */
  slowestIndex: number;
  medianIndex: number;
  p99Index: number;
}

/** Summary of durations sorted ascending. */
export function summarizeSorted(sorted: ArrayLike<number>): DistributionSummary {
  const n = sorted.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += sorted[i];
  const mean = n > 0 ? total / n : NaN;
  let m2 = 0;
  for (let i = 0; i < n; i++) m2 += (sorted[i] - mean) ** 2;
  return {
    count: n,
    totalNs: total,
    meanNs: mean,
    stdDevNs: n > 1 ? Math.sqrt(m2 / (n - 1)) : n === 1 ? 0 : NaN,
    minNs: n > 0 ? sorted[0] : NaN,
    maxNs: n > 0 ? sorted[n - 1] : NaN,
    p50Ns: percentileSorted(sorted, 0.5),
    p90Ns: percentileSorted(sorted, 0.9),
    p99Ns: percentileSorted(sorted, 0.99),
    p999Ns: percentileSorted(sorted, 0.999),
    slowestIndex: n - 1,
    medianIndex: nearestRankIndex(n, 0.5),
    p99Index: nearestRankIndex(n, 0.99),
  };
}

/** [first, last) positions of sorted durations inside the band [fromNs, toNs] (a histogram drag). */
export function durationBand(sorted: ArrayLike<number>, fromNs: number, toNs: number): [number, number] {
  const lo = Math.min(fromNs, toNs);
  const hi = Math.max(fromNs, toNs);
  const first = lowerBound(sorted, lo, 0, sorted.length);
  return [first, upperBound(sorted, hi, first, sorted.length)];
}
