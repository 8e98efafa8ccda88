/**
 * Counter rows over a scope.
 *
 * A counter of absolute values (the default; also 'deltaSinceStart', whose values are levels
 * counted from the start) is a step function: each sample's value holds until the next sample, and
 * the last one until the end of the capture; before its first sample a counter has no value, and
 * a sample without a value (NaN: the program said it was unavailable) leaves the counter without
 * one until the next sample. Over the scope (the part of each span where the counter has a value):
 *   min / max      over the values in effect (including the one carried into a span),
 *   average        time-weighted: integral of the value / time with a value
 *                  (the plain mean of the values in effect when that time is zero),
 *   first / last   the first / last value in effect in the scope,
 *   delta          last - first,   rate per second: delta / (time from first to last, in s).
 *
 * A counter of changes ('delta': each value is the change since the previous sample, per
 * nvToolsExtSemanticsCounters.h) is a series of amounts, each accrued over the time since the
 * previous sample; a sample counts when its time is in the scope:
 *   min / max / first / last   over the changes in the scope,
 *   average        mean change per sample,
 *   delta          the sum of the changes (the total change over the scope),
 *   rate per second: that sum / the time the changes accrued over (each sample's interval since
 *                  the previous one, clipped to the scope; the first sample's interval is empty).
 * Samples without a value are left out, and so is the time they cover.
 */
import { lowerBound, upperBound } from '../model/query.ts';
import type { Model } from '../model/types.ts';
import { ResolvedScope, type ScopeOptions } from './scope.ts';

export type CounterStatsOptions = Pick<ScopeOptions, 'spans' | 'tracks'>;

export interface CounterStatsRow {
  /** Index into `Model.tracks`. */
  track: number;
  label: string;
  unit?: string;
  /** What the values are (the track's counter semantics): 'delta' rows sum their changes (see above). Always set by `counterStats`. */
  valueType?: 'absolute' | 'delta' | 'deltaSinceStart';
  /** Samples with a value taken inside the scope. */
  samples: number;
  /** Samples without a value (unavailable) taken inside the scope. Always set by `counterStats`. */
  unavailable?: number;
  min: number;
  max: number;
  average: number;
  first: number;
  last: number;
  /** last - first; for 'delta' rows the sum of the changes in the scope. */
  delta: number;
  ratePerSecond: number;
  /** Time (ns) of the scope during which the counter has a value (for 'delta' rows: the time its changes accrued over). */
  coveredNs: number;
  /** Time (ns) of the scope, after the counter's first sample, during which it has no value (unavailable samples). Always set by `counterStats`. */
  noValueNs?: number;
}

export function counterStats(model: Model, options: CounterStatsOptions = {}): CounterStatsRow[] {
  const scope = new ResolvedScope(model, options, ['counter']);
  const spans: [number, number][] = scope.whole
    ? [[0, model.durationNs]]
    : Array.from(scope.from, (f, k): [number, number] => [f, scope.to[k]]);
  const rows: CounterStatsRow[] = [];
  scope.tracks.forEach((track, n) => {
    if (track.counterEnd <= track.counterBegin) return;
    const valueType = track.counter?.valueType ?? 'absolute';
    const figures = valueType === 'delta' ? deltaFigures(model, track.counterBegin, track.counterEnd, spans) : levelFigures(model, track.counterBegin, track.counterEnd, spans);
    if (!figures) return;
    rows.push({ track: scope.trackIndices[n], label: track.label, unit: track.unit, valueType, ...figures });
  });
  return rows;
}

type Figures = Required<Omit<CounterStatsRow, 'track' | 'label' | 'unit' | 'valueType'>>;

/** Figures of a step function of levels over [begin, end) of the counter columns; undefined when it has no value in the scope. */
function levelFigures(model: Model, begin: number, end: number, spans: readonly [number, number][]): Figures | undefined {
  const { timeNs, value } = model.counters;
  const captureEnd = Math.max(model.durationNs, timeNs[end - 1]);
  let samples = 0;
  let unavailable = 0;
  let min = Infinity;
  let max = -Infinity;
  let integral = 0;
  let covered = 0;
  let noValue = 0;
  let valueSum = 0;
  let valueCount = 0;
  let first = NaN;
  let firstT = NaN;
  let last = NaN;
  let lastT = NaN;
  for (const [from, to] of spans) {
    // The sample in effect at `from`: the last one at or before it, else the first one after it.
    let k = upperBound(timeNs, from, begin, end) - 1;
    if (k < begin) k = begin;
    const t0 = Math.max(from, timeNs[k]);
    if (t0 > to) continue;
    // Each sample from k on holds over [its time (or t0), next sample (or capture end)] ∩ span.
    for (; k < end; k++) {
      const tk = timeNs[k];
      if (tk > to) break;
      const segStart = Math.max(t0, tk);
      const segEnd = Math.min(to, k + 1 < end ? timeNs[k + 1] : captureEnd);
      const v = value[k];
      if (Number.isNaN(v)) {
        if (tk >= from) unavailable++;
        if (segEnd > segStart) noValue += segEnd - segStart;
        continue;
      }
      if (tk >= from) samples++;
      if (Number.isNaN(first)) {
        first = v;
        firstT = segStart;
      }
      if (v < min) min = v;
      if (v > max) max = v;
      valueSum += v;
      valueCount++;
      if (segEnd > segStart) {
        integral += v * (segEnd - segStart);
        covered += segEnd - segStart;
      }
      last = v;
      lastT = Math.max(segStart, segEnd);
    }
  }
  if (Number.isNaN(first)) return undefined;
  const elapsed = lastT - firstT;
  return {
    samples,
    unavailable,
    min,
    max,
    average: covered > 0 ? integral / covered : valueSum / valueCount,
    first,
    last,
    delta: last - first,
    ratePerSecond: elapsed > 0 ? ((last - first) * 1e9) / elapsed : 0,
    coveredNs: covered,
    noValueNs: noValue,
  };
}

/** Figures of a series of changes over [begin, end) of the counter columns; undefined when no change with a value is in the scope. */
function deltaFigures(model: Model, begin: number, end: number, spans: readonly [number, number][]): Figures | undefined {
  const { timeNs, value } = model.counters;
  let samples = 0;
  let unavailable = 0;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let covered = 0;
  let noValue = 0;
  let first = NaN;
  let last = NaN;
  for (const [from, to] of spans) {
    // Samples at times in [from, to]; each accrued over (previous sample, its time] ∩ span.
    for (let k = lowerBound(timeNs, from, begin, end); k < end; k++) {
      const tk = timeNs[k];
      if (tk > to) break;
      const interval = k > begin ? tk - Math.max(from, timeNs[k - 1]) : 0;
      const v = value[k];
      if (Number.isNaN(v)) {
        unavailable++;
        noValue += interval;
        continue;
      }
      samples++;
      if (Number.isNaN(first)) first = v;
      last = v;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      covered += interval;
    }
  }
  if (samples === 0) return undefined;
  return {
    samples,
    unavailable,
    min,
    max,
    average: sum / samples,
    first,
    last,
    delta: sum,
    ratePerSecond: covered > 0 ? (sum * 1e9) / covered : 0,
    coveredNs: covered,
    noValueNs: noValue,
  };
}
