/**
 * Baseline against candidate: per statistics group (name, thread, ...), the summary figures of
 * both captures, their absolute and relative change, and whether the change of the instances'
 * durations stands out of the runs' noise (mannWhitney.ts). The figures are the statistics
 * table's own (`rangeStats`), so the comparison and the table never disagree; the noise test
 * reads a sample of each group's ended instances, taken by `rangeStats` from its own partition. Groups are matched across
 * captures by what the table shows (label, and style for name groups), never by ids or keys,
 * which differ between captures.
 */
import { RangeFlag, type Model } from '../../model/types.ts';
import type { GroupBy } from '../groups.ts';
import { rangeInstances, rangeStats, type RangeStatsOptions, type RangeStatsResult, type RangeStatsRow } from '../rangeStats.ts';
import { durationShiftTest, MAX_TEST_INSTANCES, type ShiftTest } from './mannWhitney.ts';

/** The compared figures, in table order. */
export const COMPARE_COLUMNS = ['count', 'total', 'mean', 'median', 'p90', 'p99'] as const;
export type CompareColumn = (typeof COMPARE_COLUMNS)[number];

export interface SideFigures {
  /** Instances, as the statistics table counts them. */
  count: number;
  totalNs: number;
  meanNs: number;
  medianNs: number;
  p90Ns: number;
  p99Ns: number;
  /** Instances that never ended (never in the noise test's sample nor in the instance lists). */
  unendedCount: number;
  /** Ended instances (the table's count, less unended ones where the table still counts them). */
  endedCount: number;
  /** The longest instance (RangeIndex in that capture), -1 when none. */
  slowestRange: number;
  /** The group's key in that capture's statistics table (`rangeInstances`). */
  key: string;
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
  /** What each side was computed from, for a row's instances (`rowDurations`). */
  base: { model: Model; options: RangeStatsOptions };
  candidate: { model: Model; options: RangeStatsOptions };
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

function matchKey(groupBy: GroupBy, row: RangeStatsRow): string {
  // Name groups keep PushPop and StartEnd apart like the statistics table; others by label.
  return groupBy === 'name' ? `${row.style}|${row.label}` : row.label;
}

function sideFigures(row: RangeStatsRow): SideFigures {
  // The statistics table leaves ranges that never ended out of every figure and counts them apart.
  return {
    count: row.count,
    totalNs: row.totalNs,
    meanNs: row.avgNs,
    medianNs: row.medianNs,
    p90Ns: row.p90Ns,
    p99Ns: row.p99Ns,
    unendedCount: row.unended,
    endedCount: row.count,
    slowestRange: row.maxRange,
    key: row.key,
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
  if (!base) return 'added';
  if (!candidate) return 'removed';
  if (!test || test.verdict === 'too-few') return 'too-few';
  if (test.verdict !== 'same') return test.verdict;
  return base.endedCount === candidate.endedCount ? 'within-noise' : 'count';
}

/**
 * One capture's half of a comparison: its statistics rows and each group's duration sample. The
 * costly part (a 10M capture takes most of a second), and the same for any partner capture, so a
 * worker may compute it ahead of time and keep it (`compareSides`).
 */
export interface CompareSide {
  model: Model;
  options: RangeStatsOptions;
  rows: RangeStatsRow[];
  /** The whole statistics table the rows come from (the statistics panel's own table of this scope). */
  stats: RangeStatsResult;
  /** Per row key, a sample of its ended instances' durations (at most MAX_TEST_INSTANCES, evenly spaced). */
  samples: Map<string, Float64Array>;
}

/** `compareSide(model, options)`: the statistics table of `model` and a sample of each group's durations. */
export function compareSide(model: Model, options: RangeStatsOptions = {}): CompareSide {
  const o = { ...options, groupBy: options.groupBy ?? 'name' };
  const stats = rangeStats(model, o, MAX_TEST_INSTANCES);
  return { model, options: o, rows: stats.rows, stats, samples: stats.samples! };
}

/** `candidateOptions` (same group-by) when the scope differs per capture, e.g. spans of a named range. */
export function compareCaptures(base: Model, candidate: Model, options: RangeStatsOptions = {}, candidateOptions: RangeStatsOptions = options): CompareResult {
  const groupBy = options.groupBy ?? 'name';
  return compareSides(compareSide(base, { ...options, groupBy }), compareSide(candidate, { ...candidateOptions, groupBy }));
}

/** The comparison of two sides computed with the same group-by. */
export function compareSides(baseSide: CompareSide, candidateSide: CompareSide): CompareResult {
  const groupBy = baseSide.options.groupBy ?? 'name';
  if ((candidateSide.options.groupBy ?? 'name') !== groupBy) throw new Error(`compareSides: grouped by ${groupBy} and ${candidateSide.options.groupBy ?? 'name'}`);
  const sides = [baseSide, candidateSide];
  const rowsByKey = new Map<string, { base?: RangeStatsRow; candidate?: RangeStatsRow }>();
  sides.forEach((side, k) => {
    for (const row of side.rows) {
      const key = matchKey(groupBy, row);
      const entry = rowsByKey.get(key) ?? {};
      entry[k === 0 ? 'base' : 'candidate'] = row;
      rowsByKey.set(key, entry);
    }
  });
  const rows: CompareRow[] = [];
  for (const [key, { base: ra, candidate: rb }] of rowsByKey) {
    const sa = ra ? sides[0].samples.get(ra.key) : undefined;
    const sb = rb ? sides[1].samples.get(rb.key) : undefined;
    const test = ra && rb ? durationShiftTest(sa ?? new Float64Array(0), sb ?? new Float64Array(0)) : null;
    const baseFig = ra ? sideFigures(ra) : null;
    const candFig = rb ? sideFigures(rb) : null;
    const info = (ra ?? rb)!;
    const change = {} as Record<CompareColumn, Change>;
    for (const column of COMPARE_COLUMNS) change[column] = changeOf(baseFig, candFig, column);
    // Fields named one by one: V8 builds objects with spreads far slower (tables of 100k names).
    rows.push({
      key,
      label: info.label,
      name: info.name,
      domain: info.domain,
      style: info.style,
      status: statusOf(baseFig, candFig, test),
      base: baseFig,
      candidate: candFig,
      change,
      test,
    });
  }
  rows.sort((x, y) => y.change.total.abs - x.change.total.abs || (x.label < y.label ? -1 : x.label > y.label ? 1 : 0));
  return {
    groupBy,
    rows,
    base: { model: baseSide.model, options: baseSide.options },
    candidate: { model: candidateSide.model, options: candidateSide.options },
  };
}

/**
 * One side's ended instances of a row, sorted by duration (for the histogram, jumps and
 * alignment), through the statistics' `rangeInstances`.
 */
export function rowDurations(result: CompareResult, row: CompareRow, side: 'base' | 'candidate'): { durations: Float64Array; ranges: Int32Array } {
  const fig = side === 'base' ? row.base : row.candidate;
  const { model, options } = side === 'base' ? result.base : result.candidate;
  if (!fig) return { durations: new Float64Array(0), ranges: new Int32Array(0) };
  return endedInstances(model, options, fig.key);
}

/** A group's ended instances in one capture (`key`: `SideFigures.key`), sorted by duration. */
export function endedInstances(model: Model, options: RangeStatsOptions, key: string): { durations: Float64Array; ranges: Int32Array } {
  const all = rangeInstances(model, options, key);
  const flags = model.ranges.flags;
  let n = 0;
  for (let k = 0; k < all.ranges.length; k++) if (!(flags[all.ranges[k]] & RangeFlag.Unterminated)) n++;
  if (n === all.ranges.length) return all;
  const durations = new Float64Array(n);
  const ranges = new Int32Array(n);
  let at = 0;
  for (let k = 0; k < all.ranges.length; k++) {
    if (flags[all.ranges[k]] & RangeFlag.Unterminated) continue;
    durations[at] = all.durations[k];
    ranges[at++] = all.ranges[k];
  }
  return { durations, ranges };
}
