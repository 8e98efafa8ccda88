/**
 * What the statistics panel asks of one capture, as plain data (so a request can go to a worker),
 * and the pure function that answers it with the statistics engine (`src/analysis/`). The panel
 * turns its shared-axis state into a capture-local `StatsScope` per capture.
 */
import { counterStats, type CounterStatsRow } from '../../analysis/counterStats.ts';
import type { GroupBy } from '../../analysis/groups.ts';
import { markStats, type MarkStatsResult } from '../../analysis/markStats.ts';
import { rangeInstances, rangeStats, type GroupInstances, type RangeStatsOptions, type RangeStatsResult } from '../../analysis/rangeStats.ts';
import type { SpanMode } from '../../analysis/scope.ts';
import { statsKindScope, type StatsKind } from '../../analysis/cuda/statsKinds.ts';
import type { Model } from '../../model/types.ts';
import { payloadChoices, projectPayloadField, type PayloadChoices } from './payloadFields.ts';

/** The part of one capture the statistics look at, in the capture's own time. */
export interface StatsScope {
  /** A time span (ns from the capture start), or null for the whole capture. */
  span: { startNs: number; endNs: number } | null;
  mode: SpanMode;
  /** Track indices of the capture to look at, or null for all of them. */
  tracks: number[] | null;
  /** The event filters (src/analysis/eventFilters.ts `captureFilter`): per style / per thread, 0 = hidden. */
  includeStyles?: Uint8Array;
  includeThreads?: Uint8Array;
  /** What the range table counts (default 'ranges'): CPU ranges, API calls or GPU work, never mixed. */
  rangeKind?: StatsKind;
}

/** How the range table groups: an engine grouping, or a field of the extended payloads. */
export type Grouping = { by: GroupBy } | { by: 'payloadField'; path: string };

export type StatsRequest =
  | { kind: 'ranges'; scope: StatsScope; grouping: Grouping }
  | { kind: 'instances'; scope: StatsScope; grouping: Grouping; key: string }
  | { kind: 'marks'; scope: StatsScope }
  | { kind: 'counters'; scope: StatsScope }
  | { kind: 'payloadChoices' };

export type StatsResult =
  | { kind: 'ranges'; result: RangeStatsResult }
  | { kind: 'instances'; result: GroupInstances }
  | { kind: 'marks'; result: MarkStatsResult }
  | { kind: 'counters'; result: CounterStatsRow[] }
  | { kind: 'payloadChoices'; result: PayloadChoices };

/** Engine options of a scope and grouping, and the model to run them on (a payload-field projection). */
export function engineInput(model: Model, scope: StatsScope, grouping: Grouping): { model: Model; options: RangeStatsOptions } {
  const options: RangeStatsOptions = { mode: scope.mode, groupBy: grouping.by === 'payloadField' ? 'payload' : grouping.by };
  if (scope.span) options.spans = [scope.span];
  if (scope.tracks) options.tracks = scope.tracks;
  if (scope.includeStyles) options.includeStyles = scope.includeStyles;
  if (scope.includeThreads) options.includeThreads = scope.includeThreads;
  if (scope.rangeKind && scope.rangeKind !== 'ranges') narrowToKind(model, options, scope.rangeKind);
  return { model: grouping.by === 'payloadField' ? projectPayloadField(model, grouping.path) : model, options };
}

/** Narrows engine options to the rows and names of one kind (intersecting the caller's tracks and masks). */
function narrowToKind(model: Model, options: RangeStatsOptions, kind: StatsKind): void {
  const k = statsKindScope(model, kind);
  options.kinds = k.kinds;
  if (k.tracks) {
    const allowed = new Set(k.tracks);
    options.tracks = options.tracks ? options.tracks.filter((t) => allowed.has(t)) : k.tracks;
  }
  if (k.includeStyles) {
    const given = options.includeStyles;
    options.includeStyles = given ? k.includeStyles.map((v, i) => (v && given[i] ? 1 : 0)) : k.includeStyles;
  }
}

/** A span that misses the capture: nothing is in scope (an empty track list says so to the engine). */
function missesCapture(model: Model, scope: StatsScope): boolean {
  return scope.span !== null && (scope.span.endNs < 0 || scope.span.startNs > model.durationNs);
}

/**
 * `table` computes a range table (`rangeStats` by default): the statistics worker passes one that
 * reuses and keeps comparison halves, which hold the same table (compareSideCache.ts).
 */
export function computeStats(model: Model, request: StatsRequest, table: (model: Model, options: RangeStatsOptions) => RangeStatsResult = rangeStats): StatsResult {
  if (request.kind === 'payloadChoices') return { kind: 'payloadChoices', result: payloadChoices(model) };
  const scope = missesCapture(model, request.scope) ? { ...request.scope, tracks: [] } : request.scope;
  const spans = scope.span ? [scope.span] : undefined;
  const tracks = scope.tracks ?? undefined;
  const { includeStyles, includeThreads } = scope;
  switch (request.kind) {
    case 'ranges': {
      const input = engineInput(model, scope, request.grouping);
      return { kind: 'ranges', result: table(input.model, input.options) };
    }
    case 'instances': {
      const input = engineInput(model, scope, request.grouping);
      return { kind: 'instances', result: rangeInstances(input.model, input.options, request.key) };
    }
    case 'marks':
      return { kind: 'marks', result: markStats(model, { spans, tracks, includeStyles, includeThreads }) };
    case 'counters':
      return { kind: 'counters', result: counterStats(model, { spans, tracks }) };
  }
}

/** Typed arrays of a result, to transfer from a worker instead of copying. */
export function resultTransferables(result: StatsResult): Transferable[] {
  return result.kind === 'instances' ? [result.result.ranges.buffer, result.result.durations.buffer] : [];
}
