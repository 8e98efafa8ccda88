/**
 * Every ended range's counted duration, partitioned by statistics group: what a comparison needs
 * beyond the summary figures (the whole distribution, for the noise test and the histograms).
 * Walks the scope and groups ranges with the statistics table's own code (`forEachWindow`,
 * `Grouper`, `ResolvedScope.measure`), so scopes, filters and groupings mean the same as in the statistics panel.
 * Ranges that never ended (closed by the builder at the capture end) have no real duration: they
 * are counted per group apart and left out of the durations.
 */
import { RangeFlag, type Model } from '../../model/types.ts';
import { Grouper, styleText, type GroupBy, type GroupInfo } from '../groups.ts';
import type { RangeStatsOptions } from '../rangeStats.ts';
import { ResolvedScope } from '../scope.ts';
import { forEachWindow } from '../walk.ts';

export interface DurationGroups {
  groupBy: GroupBy;
  groups: GroupInfo[];
  /** Per group: nsys style text ("PushPop", "StartEnd", mixed with "+"). */
  styles: string[];
  /** Group g's ended instances are positions offset[g] .. offset[g + 1] of `durations` / `ranges`. */
  offset: Int32Array;
  /** Counted durations (ns), in capture walk order within a group. */
  durations: Float64Array;
  /** RangeIndex of each duration. */
  ranges: Int32Array;
  /** Per group: instances in scope that never ended (not in `durations`). */
  unended: Int32Array;
}

interface Collected {
  /** Per group: kind classes seen (style mask), instances that never ended. Grown as groups appear. */
  kinds: Uint8Array;
  unended: Int32Array;
  visited: number;
}

/**
 * Ranges [a, b) of one level window: group and counted duration of each into the flat arrays.
 * A top-level function with explicit arguments, like the statistics' own hot loops, with the same
 * per-style lookup table so most ranges cost one typed-array read to group.
 */
function collectWindow(
  model: Model,
  scope: ResolvedScope,
  grouper: Grouper,
  cls: number,
  a: number,
  b: number,
  acc: Collected,
  groupOf: Int32Array,
  measured: Float64Array,
  rangeOf: Int32Array,
): void {
  const { startNs, endNs, style, thread, flags } = model.ranges;
  const whole = scope.whole;
  const filtered = scope.filtered;
  const table = grouper.styleTable(cls);
  const bit = 1 << cls;
  let { kinds, unended, visited } = acc;
  for (let i = a; i < b; i++) {
    if (filtered && !scope.shown(style[i], thread[i])) continue;
    const m = whole ? endNs[i] - startNs[i] : scope.measure(startNs[i], endNs[i]);
    if (m < 0) continue;
    let g = table === undefined ? -1 : table[style[i]];
    if (g < 0) g = grouper.rangeGroup(i, cls);
    if (g >= kinds.length) {
      const k = new Uint8Array(Math.max(g + 1, kinds.length * 2));
      k.set(kinds);
      kinds = acc.kinds = k;
      const u = new Int32Array(k.length);
      u.set(unended);
      unended = acc.unended = u;
    }
    kinds[g] |= bit;
    if (flags[i] & RangeFlag.Unterminated) {
      unended[g]++;
      continue;
    }
    groupOf[visited] = g;
    measured[visited] = m;
    rangeOf[visited] = i;
    visited++;
  }
  acc.visited = visited;
}

export function groupDurations(model: Model, options: RangeStatsOptions = {}): DurationGroups {
  const groupBy = options.groupBy ?? 'name';
  const scope = new ResolvedScope(model, options);
  const grouper = new Grouper(model, groupBy);
  const total = model.ranges.startNs.length;
  // One pass: group and duration of each visited range, then a counting sort by group.
  const groupOf = new Int32Array(total);
  const measured = new Float64Array(total);
  const rangeOf = new Int32Array(total);
  const acc = { kinds: new Uint8Array(64), unended: new Int32Array(64), visited: 0 };
  forEachWindow(model, scope, (_track, cls, _level, a, b) => collectWindow(model, scope, grouper, cls, a, b, acc, groupOf, measured, rangeOf));
  const { kinds, unended, visited } = acc;
  const groups = grouper.size;
  const offset = new Int32Array(groups + 1);
  for (let k = 0; k < visited; k++) offset[groupOf[k] + 1]++;
  for (let g = 0; g < groups; g++) offset[g + 1] += offset[g];
  const fill = offset.slice(0, groups);
  const durations = new Float64Array(visited);
  const ranges = new Int32Array(visited);
  for (let k = 0; k < visited; k++) {
    const at = fill[groupOf[k]]++;
    durations[at] = measured[k];
    ranges[at] = rangeOf[k];
  }
  return {
    groupBy,
    groups: grouper.groups.slice(),
    styles: Array.from({ length: groups }, (_, g) => styleText(kinds[g])),
    offset,
    durations,
    ranges,
    unended: unended.slice(0, groups),
  };
}
