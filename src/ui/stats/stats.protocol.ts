/** Messages between the page and the statistics worker (one worker; it holds copies of the large models). */
import type { Model } from '../../model/types.ts';
import type { CompareRow } from '../../analysis/compare/index.ts';
import type { GroupBy } from '../../analysis/groups.ts';
import type { RangeStatsOptions } from '../../analysis/rangeStats.ts';
import type { StatsRequest, StatsResult } from './compute.ts';

export type ToStatsWorker =
  /** A copy of a capture's model (structured clone): later runs on that capture read it. */
  | { type: 'model'; capture: number; model: Model }
  /**
   * A slice of the next model's string table for `capture` (src/worker/stringSlices.ts); a model
   * sent after slices has `strings: []` and takes them, in order.
   */
  | { type: 'strings'; capture: number; strings: string[] }
  /** Forget a capture's model (closed or reloaded). */
  | { type: 'drop'; capture: number }
  | { type: 'run'; id: number; capture: number; request: StatsRequest }
  /** `compareCaptures` of two held captures, each with its own scope (same group-by). */
  | { type: 'compare'; id: number; base: number; candidate: number; baseOptions: RangeStatsOptions; candidateOptions: RangeStatsOptions }
  /** One comparison row's ended instances in one capture (`endedInstances`), for its detail. */
  | { type: 'instances'; id: number; capture: number; options: RangeStatsOptions; key: string }
  /**
   * One capture's half of a comparison (`compareSide`), computed ahead of time and kept for the
   * next 'compare' with the same options (answered 'prepared').
   */
  | { type: 'prepare'; id: number; capture: number; options: RangeStatsOptions }
  /** The `n`-th ended instance by start time of one comparison row in one capture (align at the N-th instance). */
  | { type: 'nth'; id: number; capture: number; options: RangeStatsOptions; key: string; n: number };

export type FromStatsWorker =
  | { type: 'result'; id: number; result: StatsResult; ms: number }
  /** A comparison without its models: the rows (plain data), and the options each side ran with. */
  | { type: 'compared'; id: number; groupBy: GroupBy; rows: CompareRow[]; baseOptions: RangeStatsOptions; candidateOptions: RangeStatsOptions; ms: number }
  | { type: 'instances'; id: number; durations: Float64Array; ranges: Int32Array; ms: number }
  | { type: 'prepared'; id: number; ms: number }
  /** A RangeIndex of that capture, or -1 when the row has fewer instances. */
  | { type: 'nth'; id: number; range: number; ms: number }
  | { type: 'failed'; id: number; message: string };
