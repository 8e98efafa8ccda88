/**
 * Per statistics group, a sample of the ended instances' durations for the noise test (at most
 * MAX_TEST_INSTANCES, evenly spaced in capture order) and the number of instances that never ended
 * (closed by the builder at the capture end: no real duration, so never in a sample).
 * Walks the scope and groups ranges with the statistics table's own code (`forEachWindow`,
 * `Grouper`, `ResolvedScope.measure`), so scopes, filters and groupings mean the same as there;
 * group keys are the table's keys (`RangeStatsRow.key`).
 */
import { RangeFlag, type Model } from '../../model/types.ts';
import { Grouper } from '../groups.ts';
import type { RangeStatsOptions } from '../rangeStats.ts';
import { ResolvedScope } from '../scope.ts';
import { forEachWindow } from '../walk.ts';
import { MAX_TEST_INSTANCES } from './mannWhitney.ts';

export interface GroupSample {
  /** Ended instances' durations (ns), a systematic sample when there are more than MAX_TEST_INSTANCES. */
  durations: Float64Array;
  /** Instances in scope that never ended. */
  unended: number;
}

class Sampler {
  /** Per group id: every `stride`-th ended instance is kept, up to the cap. */
  stride: Float64Array;
  seen: Float64Array;
  kept: Int32Array;
  unended: Int32Array;
  values: (Float64Array | undefined)[] = [];

  constructor(private readonly expected: (key: string) => number, private readonly grouper: Grouper) {
    this.stride = new Float64Array(64);
    this.seen = new Float64Array(64);
    this.kept = new Int32Array(64);
    this.unended = new Int32Array(64);
  }

  /** Makes room for group g (first seen now): its stride from the expected count. */
  add(g: number): void {
    if (g >= this.stride.length) {
      const n = Math.max(g + 1, this.stride.length * 2);
      const grow = <T extends Float64Array | Int32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(n);
        b.set(a);
        return b;
      };
      this.stride = grow(this.stride);
      this.seen = grow(this.seen);
      this.kept = grow(this.kept);
      this.unended = grow(this.unended);
    }
    const expected = Math.max(1, this.expected(this.grouper.groups[g].key));
    this.stride[g] = Math.max(1, expected / MAX_TEST_INSTANCES);
    this.values[g] = new Float64Array(Math.min(expected, MAX_TEST_INSTANCES));
  }
}

/** Ranges [a, b) of one level window (a top-level function with explicit arguments, like the statistics' hot loops). */
function sampleWindow(model: Model, scope: ResolvedScope, grouper: Grouper, cls: number, a: number, b: number, s: Sampler): void {
  const { startNs, endNs, style, thread, flags } = model.ranges;
  const whole = scope.whole;
  const filtered = scope.filtered;
  const table = grouper.styleTable(cls);
  for (let i = a; i < b; i++) {
    if (filtered && !scope.shown(style[i], thread[i])) continue;
    const m = whole ? endNs[i] - startNs[i] : scope.measure(startNs[i], endNs[i]);
    if (m < 0) continue;
    let g = table === undefined ? -1 : table[style[i]];
    if (g < 0) {
      const known = grouper.size;
      g = grouper.rangeGroup(i, cls);
      if (grouper.size > known) for (let k = known; k < grouper.size; k++) s.add(k);
    }
    if (flags[i] & RangeFlag.Unterminated) {
      s.unended[g]++;
      continue;
    }
    // Keep instance k when it reaches the next multiple of the stride: evenly spaced, no randomness.
    const k = s.seen[g]++;
    const kept = s.kept[g];
    const values = s.values[g]!;
    if (kept < values.length && k >= kept * s.stride[g]) {
      values[kept] = m;
      s.kept[g] = kept + 1;
    }
  }
}

/** Samples by group key; `expected(key)` is the group's instance count (the statistics table's). */
export function groupSamples(model: Model, options: RangeStatsOptions, expected: (key: string) => number): Map<string, GroupSample> {
  const scope = new ResolvedScope(model, options);
  const grouper = new Grouper(model, options.groupBy ?? 'name');
  const sampler = new Sampler(expected, grouper);
  forEachWindow(model, scope, (_track, cls, _level, a, b) => sampleWindow(model, scope, grouper, cls, a, b, sampler));
  const out = new Map<string, GroupSample>();
  for (let g = 0; g < grouper.size; g++) {
    out.set(grouper.groups[g].key, { durations: sampler.values[g]!.subarray(0, sampler.kept[g]), unended: sampler.unended[g] });
  }
  return out;
}
