/**
 * Counter rows over a scope. A counter is a step function: each sample's value holds until the
 * next sample, and the last one until the end of the capture; before its first sample a counter
 * has no value. Over the scope (the part of each span where the counter has a value):
 *   min / max      over the values in effect (including the one carried into a span),
 *   average        time-weighted: integral of the value / time with a value
 *                  (the plain mean of the values in effect when that time is zero),
 *   first / last   the value at the start of the first span / at the end of the last span,
 *   delta          last - first,   rate per second: delta / (time from first to last, in s).
 */
import { upperBound } from '../model/query.ts';
import type { Model } from '../model/types.ts';
import { ResolvedScope, type ScopeOptions } from './scope.ts';

export type CounterStatsOptions = Pick<ScopeOptions, 'spans' | 'tracks'>;

export interface CounterStatsRow {
  /** Index into `Model.tracks`. */
  track: number;
  label: string;
  unit?: string;
  /** Samples taken inside the scope. */
  samples: number;
  min: number;
  max: number;
  average: number;
  first: number;
  last: number;
  delta: number;
  ratePerSecond: number;
  /** Time (ns) of the scope during which the counter has a value. */
  coveredNs: number;
}

export function counterStats(model: Model, options: CounterStatsOptions = {}): CounterStatsRow[] {
  const scope = new ResolvedScope(model, options, ['counter']);
  const spans: [number, number][] = scope.whole
    ? [[0, model.durationNs]]
    : Array.from(scope.from, (f, k): [number, number] => [f, scope.to[k]]);
  const { timeNs, value } = model.counters;
  const rows: CounterStatsRow[] = [];
  scope.tracks.forEach((track, n) => {
    const begin = track.counterBegin;
    const end = track.counterEnd;
    if (end <= begin) return;
    const captureEnd = Math.max(model.durationNs, timeNs[end - 1]);
    let samples = 0;
    let min = Infinity;
    let max = -Infinity;
    let integral = 0;
    let covered = 0;
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
      if (Number.isNaN(first)) {
        first = value[k];
        firstT = t0;
      }
      // Each sample from k on holds over [its time (or t0), next sample (or capture end)] ∩ span.
      for (; k < end; k++) {
        const tk = timeNs[k];
        if (tk > to) break;
        const segStart = Math.max(t0, tk);
        const segEnd = Math.min(to, k + 1 < end ? timeNs[k + 1] : captureEnd);
        const v = value[k];
        if (tk >= from) samples++;
        if (v < min) min = v;
        if (v > max) max = v;
        valueSum += v;
        valueCount++;
        if (segEnd > segStart) {
          integral += v * (segEnd - segStart);
          covered += segEnd - segStart;
        }
        last = v;
      }
      lastT = Math.max(t0, Math.min(to, captureEnd));
    }
    if (Number.isNaN(first)) return;
    const elapsed = lastT - firstT;
    rows.push({
      track: scope.trackIndices[n],
      label: track.label,
      unit: track.unit,
      samples,
      min,
      max,
      average: covered > 0 ? integral / covered : valueSum / valueCount,
      first,
      last,
      delta: last - first,
      ratePerSecond: elapsed > 0 ? ((last - first) * 1e9) / elapsed : 0,
      coveredNs: covered,
    });
  });
  return rows;
}
