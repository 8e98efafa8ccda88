/**
 * Counter rows over a scope.
 *
 * A counter of absolute values (the default; also 'deltaSinceStart', whose values are levels
 * counted from the start) runs between samples as its row draws it (`CounterTrackInfo.interpolation`):
 * by default a step function where each sample's value holds until the next sample, and the last one
 * until the end of the capture; 'sinceLast' holds each value back to the previous sample; 'linear'
 * runs straight from sample to sample; 'point' has values only at the samples (no time-weighting).
 * Before its first sample a counter has no value, and a sample without a value (NaN: the program
 * said it was unavailable) leaves the counter without one over the time its piece of the graph
 * covers. Over the scope (the part of each span where the counter has a value):
 *   min / max      over the values in effect (including the one carried into a span, and on
 *                  linear rows the values interpolated at the span's edges),
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
import type { CounterTrackInfo, Model } from '../model/types.ts';
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
    const interpolation = track.counter?.interpolation ?? 'untilNext';
    const figures =
      valueType === 'delta'
        ? deltaFigures(model, track.counterBegin, track.counterEnd, spans)
        : levelFigures(model, track.counterBegin, track.counterEnd, spans, interpolation);
    if (!figures) return;
    rows.push({ track: scope.trackIndices[n], label: track.label, unit: track.unit, valueType, ...figures });
  });
  return rows;
}

type Figures = Required<Omit<CounterStatsRow, 'track' | 'label' | 'unit' | 'valueType'>>;

/**
 * Figures of a counter of levels over [begin, end) of the counter columns, by how its value runs
 * between samples (the track's interpolation, as drawn): each sample gives a piece of the counter's
 * graph, clipped to the spans. Undefined when the counter has no value in the scope.
 */
function levelFigures(model: Model, begin: number, end: number, spans: readonly [number, number][], interpolation: Interpolation): Figures | undefined {
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
  const piece = { a: 0, b: 0, va: 0, vb: 0 };
  for (const [from, to] of spans) {
    for (let k = lowerBound(timeNs, from, begin, end); k < end && timeNs[k] <= to; k++) {
      if (Number.isNaN(value[k])) unavailable++;
      else samples++;
    }
    // The piece of sample k: from (a, va) to (b, vb), linear in between; NaN values: no value there.
    for (let k = Math.max(begin, upperBound(timeNs, from, begin, end) - 1); k < end; k++) {
      pieceOf(interpolation, timeNs, value, k, begin, end, captureEnd, piece);
      if (piece.a > to) break;
      if (piece.b < from) continue;
      const c0 = Math.max(from, piece.a);
      const c1 = Math.min(to, piece.b);
      if (Number.isNaN(piece.va) || Number.isNaN(piece.vb)) {
        noValue += c1 - c0;
        continue;
      }
      const at = (t: number) => (piece.b === piece.a ? piece.va : piece.va + ((piece.vb - piece.va) * (t - piece.a)) / (piece.b - piece.a));
      const u0 = at(c0);
      const u1 = at(c1);
      if (Number.isNaN(first)) {
        first = u0;
        firstT = c0;
      }
      min = Math.min(min, u0, u1);
      max = Math.max(max, u0, u1);
      valueSum += u0;
      valueCount++;
      integral += ((u0 + u1) / 2) * (c1 - c0);
      covered += c1 - c0;
      last = u1;
      lastT = c1;
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

type Interpolation = NonNullable<CounterTrackInfo['interpolation']>;

/**
 * The piece of a counter's graph sample k gives, as drawn: 'untilNext' holds its value until the
 * next sample (the last one until the capture end); 'sinceLast' back to the previous sample (the
 * first one is a point); 'linear' runs to the next sample's value (the last one is a point); 'point'
 * is the sample alone.
 */
function pieceOf(
  interpolation: Interpolation,
  times: Float64Array,
  values: Float64Array,
  k: number,
  begin: number,
  end: number,
  captureEnd: number,
  out: { a: number; b: number; va: number; vb: number },
): void {
  const t = times[k];
  const v = values[k];
  out.a = t;
  out.b = t;
  out.va = v;
  out.vb = v;
  switch (interpolation) {
    case 'untilNext':
      out.b = k + 1 < end ? times[k + 1] : captureEnd;
      break;
    case 'sinceLast':
      if (k > begin) out.a = times[k - 1];
      break;
    case 'linear':
      if (k + 1 < end) {
        out.b = times[k + 1];
        out.vb = values[k + 1];
      }
      break;
    case 'point':
      break;
  }
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
