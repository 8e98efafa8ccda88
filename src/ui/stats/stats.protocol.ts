/** Messages between the page and the statistics worker (one worker; it holds copies of the large models). */
import type { Model } from '../../model/types.ts';
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
  | { type: 'run'; id: number; capture: number; request: StatsRequest };

export type FromStatsWorker =
  | { type: 'result'; id: number; result: StatsResult; ms: number }
  | { type: 'failed'; id: number; message: string };
