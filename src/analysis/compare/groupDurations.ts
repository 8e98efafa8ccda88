/**
 * Every ended range's counted duration, partitioned by statistics group: what a comparison needs
 * beyond the summary figures (the whole distribution, for the noise test and the histograms).
 * Walks the scope and groups ranges with the statistics table's own code (`forEachRange`,
 * `Grouper`), so scopes, filters and groupings mean the same as in the statistics panel.
 * Ranges that never ended (closed by the builder at the capture end) have no real duration: they
 * are counted per group apart and left out of the durations.
 */
import { RangeFlag, type Model } from '../../model/types.ts';
import { Grouper, styleText, type GroupBy, type GroupInfo } from '../groups.ts';
import type { RangeStatsOptions } from '../rangeStats.ts';
import { ResolvedScope } from '../scope.ts';
import { forEachRange } from '../walk.ts';

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

export function groupDurations(model: Model, options: RangeStatsOptions = {}): DurationGroups {
  const groupBy = options.groupBy ?? 'name';
  const scope = new ResolvedScope(model, options);
  const grouper = new Grouper(model, groupBy);
  const flags = model.ranges.flags;
  const total = model.ranges.startNs.length;
  // One pass: group and duration of each visited range, then a counting sort by group.
  const groupOf = new Int32Array(total);
  const measured = new Float64Array(total);
  const rangeOf = new Int32Array(total);
  let kinds = new Uint8Array(64);
  let unended = new Int32Array(64);
  let visited = 0;
  forEachRange(model, scope, (i, cls, m) => {
    const g = grouper.rangeGroup(i, cls);
    if (g >= kinds.length) {
      const k = new Uint8Array(kinds.length * 2);
      k.set(kinds);
      kinds = k;
      const u = new Int32Array(unended.length * 2);
      u.set(unended);
      unended = u;
    }
    kinds[g] |= 1 << cls;
    if (flags[i] & RangeFlag.Unterminated) {
      unended[g]++;
      return;
    }
    groupOf[visited] = g;
    measured[visited] = m;
    rangeOf[visited] = i;
    visited++;
  });
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
