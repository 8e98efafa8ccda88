/**
 * Baseline against candidate: per statistics group (name, thread, ...), the summary figures of
 * both captures, their absolute and relative change, and whether the change of the instances'
 * durations stands out of the runs' noise (mannWhitney.ts). Groups are matched across captures
 * by what the statistics table shows (label, and style for name groups), never by ids, which
 * differ between captures.
 */
import type { Model } from '../../model/types.ts';
import type { GroupBy } from '../groups.ts';
import { quantilesInPlace } from '../quantiles.ts';
import type { RangeStatsOptions } from '../rangeStats.ts';
import { groupDurations, type DurationGroups } from './groupDurations.ts';
import { durationShiftTest, type ShiftTest } from './mannWhitney.ts';

/** The compared figures, in table order. */
export const COMPARE_COLUMNS = ['count', 'total', 'mean', 'median', 'p90', 'p99'] as const;
export type CompareColumn = (typeof COMPARE_COLUMNS)[number];

export interface SideFigures {
  /** Ended instances. */
  count: number;
  totalNs: number;
  meanNs: number;
  medianNs: number;
  p90Ns: number;
  p99Ns: number;
  /** Instances that never ended (not in any other figure). */
  unendedCount: number;
  /** The longest instance (RangeIndex in that capture), -1 when none. */
  slowestRange: number;
  /** Index of the group in that side's `DurationGroups`. */
  group: number;
}

/**
 * - added / removed: the group is only in the candidate / the baseline;
 * - slower / faster: the durations shifted beyond noise;
 * - count: the durations are within noise but the number of instances changed;
 * - within-noise: same count and a duration change within the runs' noise;
 * - too-few: too few instances on a side for the noise test (figures still compared).
 */
export type CompareStatus = 'added' | 'removed' | 'slower' | 'faster' | 'count' | 'within-noise' | 'too-few';

export interface Change {
  /** candidate - baseline (a missing side counts as 0). */
  abs: number;
  /** abs / baseline: +Infinity for an added group, NaN when both are 0. */
  rel: number;
}

export interface CompareRow {
  /** Matching key across captures. */
  key: string;
  label: string;
  name?: string;
  domain?: string;
  style: string;
  status: CompareStatus;
  base: SideFigures | null;
  candidate: SideFigures | null;
  change: Record<CompareColumn, Change>;
  /** Noise test of the durations; null for added / removed groups. */
  test: ShiftTest | null;
}

export interface CompareResult {
  groupBy: GroupBy;
  /** Sorted by change of total time, largest increase first. */
  rows: CompareRow[];
  /** The per-side durations, for histograms and jumps (`rowDurations`). */
  base: DurationGroups;
  candidate: DurationGroups;
}

export function figureOf(side: SideFigures | null, column: CompareColumn): number {
  if (!side) return 0;
  switch (column) {
    case 'count':
      return side.count;
    case 'total':
      return side.totalNs;
    case 'mean':
      return side.meanNs;
    case 'median':
      return side.medianNs;
    case 'p90':
      return side.p90Ns;
    default:
      return side.p99Ns;
  }
}

function matchKey(groups: DurationGroups, g: number): string {
  const info = groups.groups[g];
  // Name groups keep PushPop and StartEnd apart like the statistics table; others by label.
  return groups.groupBy === 'name' ? `${groups.styles[g]}|${info.label}` : info.label;
}

function sideFigures(groups: DurationGroups, g: number, scratch: Float64Array): SideFigures {
  const lo = groups.offset[g];
  const hi = groups.offset[g + 1];
  const n = hi - lo;
  let total = 0;
  let slowest = -1;
  let max = -Infinity;
  const { durations, ranges } = groups;
  for (let k = lo; k < hi; k++) {
    const d = durations[k];
    total += d;
    if (d > max) {
      max = d;
      slowest = ranges[k];
    }
  }
  // Selection reorders: work on a copy, `durations` stays paired with `ranges`.
  const work = scratch.subarray(0, n);
  work.set(durations.subarray(lo, hi));
  const [median, p90, p99] = quantilesInPlace(work, 0, n, [0.5, 0.9, 0.99]);
  return {
    count: n,
    totalNs: total,
    meanNs: n > 0 ? total / n : NaN,
    medianNs: median,
    p90Ns: p90,
    p99Ns: p99,
    unendedCount: groups.unended[g],
    slowestRange: slowest,
    group: g,
  };
}

function changeOf(base: SideFigures | null, candidate: SideFigures | null, column: CompareColumn): Change {
  const b = figureOf(base, column);
  const c = figureOf(candidate, column);
  const bothCounted = (base?.count ?? 0) > 0 && (candidate?.count ?? 0) > 0;
  // Mean and percentiles of a side without instances are undefined, not 0.
  if (column !== 'count' && column !== 'total' && !bothCounted) {
    if (base?.count && !candidate?.count) return { abs: -b, rel: -1 };
    if (!base?.count && candidate?.count) return { abs: c, rel: Infinity };
    return { abs: 0, rel: NaN };
  }
  const abs = c - b;
  return { abs, rel: b !== 0 ? abs / b : abs === 0 ? NaN : Infinity };
}

function statusOf(base: SideFigures | null, candidate: SideFigures | null, test: ShiftTest | null): CompareStatus {
  if (!base || base.count + base.unendedCount === 0) return 'added';
  if (!candidate || candidate.count + candidate.unendedCount === 0) return 'removed';
  if (!test || test.verdict === 'too-few') return 'too-few';
  if (test.verdict !== 'same') return test.verdict;
  return base.count === candidate.count ? 'within-noise' : 'count';
}

/** `candidateOptions` (same group-by) when the scope differs per capture, e.g. spans of a named range. */
export function compareCaptures(base: Model, candidate: Model, options: RangeStatsOptions = {}, candidateOptions: RangeStatsOptions = options): CompareResult {
  const a = groupDurations(base, options);
  const b = groupDurations(candidate, { ...candidateOptions, groupBy: options.groupBy });
  return compareDurationGroups(a, b);
}

/** The comparison of two captures' grouped durations (computed with the same options). */
export function compareDurationGroups(a: DurationGroups, b: DurationGroups): CompareResult {
  let largest = 0;
  for (const g of [a, b]) for (let k = 0; k + 1 < g.offset.length; k++) largest = Math.max(largest, g.offset[k + 1] - g.offset[k]);
  const scratch = new Float64Array(largest);
  const rowsByKey = new Map<string, { base: number; candidate: number }>();
  const order: string[] = [];
  const visit = (groups: DurationGroups, side: 'base' | 'candidate') => {
    for (let g = 0; g < groups.groups.length; g++) {
      // Groups seen only as parents (group by parent) have no instances of their own.
      if (groups.offset[g + 1] === groups.offset[g] && groups.unended[g] === 0) continue;
      const key = matchKey(groups, g);
      let entry = rowsByKey.get(key);
      if (!entry) {
        entry = { base: -1, candidate: -1 };
        rowsByKey.set(key, entry);
        order.push(key);
      }
      entry[side] = g;
    }
  };
  visit(a, 'base');
  visit(b, 'candidate');
  const rows: CompareRow[] = [];
  for (const key of order) {
    const { base: ga, candidate: gb } = rowsByKey.get(key)!;
    const test =
      ga >= 0 && gb >= 0
        ? durationShiftTest(a.durations.subarray(a.offset[ga], a.offset[ga + 1]), b.durations.subarray(b.offset[gb], b.offset[gb + 1]))
        : null;
    const baseFig = ga >= 0 ? sideFigures(a, ga, scratch) : null;
    const candFig = gb >= 0 ? sideFigures(b, gb, scratch) : null;
    const info = ga >= 0 ? a.groups[ga] : b.groups[gb];
    const change = {} as Record<CompareColumn, Change>;
    for (const column of COMPARE_COLUMNS) change[column] = changeOf(baseFig, candFig, column);
    rows.push({
      key,
      label: info.label,
      ...(info.name !== undefined ? { name: info.name } : {}),
      ...(info.domain !== undefined ? { domain: info.domain } : {}),
      style: ga >= 0 ? a.styles[ga] : b.styles[gb],
      status: statusOf(baseFig, candFig, test),
      base: baseFig,
      candidate: candFig,
      change,
      test,
    });
  }
  rows.sort((x, y) => y.change.total.abs - x.change.total.abs || (x.label < y.label ? -1 : x.label > y.label ? 1 : 0));
  return { groupBy: a.groupBy, rows, base: a, candidate: b };
}

/** One side's instances of a row, sorted by duration (for the histogram and jumps). */
export function rowDurations(result: CompareResult, row: CompareRow, side: 'base' | 'candidate'): { durations: Float64Array; ranges: Int32Array } {
  const fig = side === 'base' ? row.base : row.candidate;
  const groups = side === 'base' ? result.base : result.candidate;
  if (!fig) return { durations: new Float64Array(0), ranges: new Int32Array(0) };
  const lo = groups.offset[fig.group];
  const hi = groups.offset[fig.group + 1];
  const order = Uint32Array.from({ length: hi - lo }, (_, k) => lo + k);
  order.sort((p, q) => groups.durations[p] - groups.durations[q] || groups.ranges[p] - groups.ranges[q]);
  return { durations: Float64Array.from(order, (k) => groups.durations[k]), ranges: Int32Array.from(order, (k) => groups.ranges[k]) };
}
