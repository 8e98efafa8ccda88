/**
 * The per-name (or per-thread, per-category...) range table, with the columns of nsys `nvtx_sum`
 * plus self time and tail percentiles. Two passes over the scope: the first accumulates count,
 * total, min, max and covered-by-children time per group; the second drops every counted
 * duration into one buffer partitioned by group, where selection (quantiles.ts) finds median and
 * percentiles without sorting, and a second loop the standard deviation (numerically stable, no
 * sum of squares). No object per range: typed arrays and small per-group accumulators only.
 *
 * Ranges still open at the end of the capture (`RangeFlag.Unterminated`) have no real end: the
 * builder closes them at the capture end, so their "duration" says when the capture stopped, not
 * how long the work took. They are counted apart (`unended`) and never enter totals, means or
 * percentiles, as nsys' nvtx_sum drops them; a crashed run's open ranges inflate nothing.
 */
import { RangeFlag, type Model } from '../model/types.ts';
import { Grouper, styleText, type GroupBy, type GroupInfo } from './groups.ts';
import { quantilesInPlace, thinned } from './quantiles.ts';
import { ResolvedScope, type ScopeOptions } from './scope.ts';
import { forEachRange, trackWindows, type TrackWindows } from './walk.ts';

export interface RangeStatsOptions extends ScopeOptions {
  /** Default 'name'. */
  groupBy?: GroupBy;
}

export interface RangeStatsRow extends GroupInfo {
  /** nsys Style: "PushPop", "StartEnd" (or "PushPop+StartEnd" for a mixed non-name group). */
  style: string;
  /** Instances that ended (the ones every duration column describes). */
  count: number;
  /**
   * Instances in scope still open at the end of the capture: left out of every other column. A
   * row of only such instances has count 0 and NaN in the duration columns (shown as "-").
   */
  unended: number;
  /** Sum of counted durations (clipped in 'clip' mode). */
  totalNs: number;
  /** Total minus the time covered by direct children on the same row. */
  selfNs: number;
  avgNs: number;
  /** Median (mean of the middle two for an even count). */
  medianNs: number;
  minNs: number;
  maxNs: number;
  /** Sample standard deviation (n - 1); 0 for one instance. */
  stdDevNs: number;
  /** Percentiles by linear interpolation between closest ranks (see quantiles.ts). */
  p90Ns: number;
  p99Ns: number;
  /** Share of the sum of the totals of all rows, in percent. */
  timePercent: number;
  /** The longest instance (RangeIndex), for "jump to the slowest". */
  maxRange: number;
}

export interface RangeStatsResult {
  groupBy: GroupBy;
  /** Sorted by total time, descending (then by label). */
  rows: RangeStatsRow[];
  /** Ranges counted (ended ones). */
  rangeCount: number;
  /** Ranges in scope that never ended (not in `rangeCount` nor in any total). */
  unendedCount: number;
  /** Sum of the rows' totals (the Time (%) denominator). */
  totalNs: number;
  /** Length of the scope: the capture duration or the sum of the span lengths. */
  scopeNs: number;
  /**
   * With `samplePerGroup`: per row key, at most that many of the group's durations (counted
   * instances only), evenly spaced in walk order (the comparison's noise test).
   */
  samples?: Map<string, Float64Array>;
}

function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, size: number, fill: number): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  next.fill(fill);
  next.set(a);
  return next;
}

/** Per-group accumulators, grown as groups appear. */
class Accumulators {
  count = new Float64Array(64);
  total = new Float64Array(64);
  covered = new Float64Array(64);
  min = new Float64Array(64).fill(Infinity);
  max = new Float64Array(64).fill(-Infinity);
  maxRange = new Int32Array(64).fill(-1);
  kinds = new Uint8Array(64);
  unended = new Float64Array(64);
  ranges = 0;
  unendedRanges = 0;

  ensure(size: number): void {
    if (size <= this.count.length) return;
    this.count = grown(this.count, size, 0);
    this.total = grown(this.total, size, 0);
    this.covered = grown(this.covered, size, 0);
    this.min = grown(this.min, size, Infinity);
    this.max = grown(this.max, size, -Infinity);
    this.maxRange = grown(this.maxRange, size, -1);
    this.kinds = grown(this.kinds, size, 0);
    this.unended = grown(this.unended, size, 0);
  }
}

/**
 * Pass 1 over one track, deepest level first: count, total, min, max per group; self time from
 * the time each level's ranges cover of their parents, gathered per parent position in `cover`
 * buffers (sequential access, no lookup of the parent's group). Top-level functions with explicit
 * arguments keep the hot loop easy for the JIT (no captured mutable state).
 */
function accumulateTrack(model: Model, scope: ResolvedScope, grouper: Grouper, acc: Accumulators, track: TrackWindows, buffers: CoverBuffers): void {
  const { startNs, endNs, style, thread, parent, flags } = model.ranges;
  const { cls, bounds } = track;
  const whole = scope.whole;
  const filtered = scope.filtered;
  const table = grouper.styleTable(cls);
  const bit = 1 << cls;
  // Locals, re-read only when the arrays grow.
  let { count, total, covered, min, max, maxRange, kinds, unended } = acc;
  let counted = 0;
  let open = 0;
  const deepest = bounds.length / 2 - 1;
  // The deepest level has no children: nothing covers it.
  let mine = buffers.take(deepest >= 0 ? bounds[2 * deepest + 1] - bounds[2 * deepest] : 0);
  for (let level = deepest; level >= 0; level--) {
    const a = bounds[2 * level];
    const b = bounds[2 * level + 1];
    // What this level covers of its parents, by position in the parent level's window.
    const pa = level > 0 ? bounds[2 * level - 2] : 0;
    const pn = level > 0 ? bounds[2 * level - 1] - pa : 0;
    const parents = buffers.take(pn, mine);
    for (let i = a; i < b; i++) {
      const s = startNs[i];
      const e = endNs[i];
      if (pn > 0) {
        const p = parent[i];
        const at = p - pa;
        if (at >= 0 && at < pn) {
          const pe = endNs[p];
          const c = whole ? (e < pe ? e : pe) - s : scope.childCover(s, e, pe);
          if (c > 0) parents[at] += c;
        }
      }
      if (filtered && !scope.shown(style[i], thread[i])) continue;
      const m = whole ? e - s : scope.measure(s, e);
      if (m < 0) continue;
      let g = table === undefined ? -1 : table[style[i]];
      if (g < 0) g = grouper.rangeGroup(i, cls);
      if (g >= count.length) {
        acc.ensure(g + 1);
        ({ count, total, covered, min, max, maxRange, kinds, unended } = acc);
      }
      kinds[g] |= bit;
      if (flags[i] & RangeFlag.Unterminated) {
        unended[g]++;
        open++;
        continue;
      }
      count[g]++;
      total[g] += m;
      covered[g] += mine[i - a];
      if (m < min[g]) min[g] = m;
      if (m > max[g]) {
        max[g] = m;
        maxRange[g] = i;
      }
      counted++;
    }
    mine = parents;
  }
  acc.ranges += counted;
  acc.unendedRanges += open;
}

/** Two zeroed scratch buffers handed out alternately, grown on demand. */
class CoverBuffers {
  private a = new Float64Array(1024);
  private b = new Float64Array(1024);

  /** A zeroed buffer of at least `length` entries that is not `busy`. */
  take(length: number, busy?: Float64Array): Float64Array {
    let buf = busy === this.a ? this.b : this.a;
    if (buf.length < length) {
      buf = new Float64Array(Math.max(length, buf.length * 2));
      if (busy === this.a) this.b = buf;
      else this.a = buf;
    } else {
      buf.fill(0, 0, Math.max(length, 1));
    }
    return buf;
  }
}

/** Pass 2 over ranges [a, b): each counted duration into its group's part of `values`. */
function partition(model: Model, scope: ResolvedScope, grouper: Grouper, fill: Int32Array, values: Float64Array, cls: number, a: number, b: number): void {
  const { startNs, endNs, style, thread, flags } = model.ranges;
  const whole = scope.whole;
  const filtered = scope.filtered;
  const table = grouper.styleTable(cls);
  for (let i = a; i < b; i++) {
    if (flags[i] & RangeFlag.Unterminated) continue;
    if (filtered && !scope.shown(style[i], thread[i])) continue;
    const m = whole ? endNs[i] - startNs[i] : scope.measure(startNs[i], endNs[i]);
    if (m < 0) continue;
    let g = table === undefined ? -1 : table[style[i]];
    if (g < 0) g = grouper.rangeGroup(i, cls);
    values[fill[g]++] = m;
  }
}

/**
 * The table. `samplePerGroup` > 0 also keeps a sample of each group's durations (`samples`),
 * taken from the partition the percentiles are computed from, before it is reordered: no second walk.
 */
export function rangeStats(model: Model, options: RangeStatsOptions = {}, samplePerGroup = 0): RangeStatsResult {
  const groupBy = options.groupBy ?? 'name';
  const scope = new ResolvedScope(model, options);
  const grouper = new Grouper(model, groupBy);
  const tracks = trackWindows(model, scope);
  const acc = new Accumulators();
  const buffers = new CoverBuffers();
  for (const track of tracks) accumulateTrack(model, scope, grouper, acc, track, buffers);

  const groups = grouper.size;
  acc.ensure(groups);
  const { count, total, covered, min, max, maxRange, kinds, unended } = acc;
  const rangeCount = acc.ranges;
  const offset = new Int32Array(groups + 1);
  for (let g = 0; g < groups; g++) offset[g + 1] = offset[g] + count[g];
  const fill = offset.slice(0, groups);
  const values = new Float64Array(rangeCount);
  for (const { cls, bounds } of tracks) {
    for (let w = 0; w < bounds.length; w += 2) partition(model, scope, grouper, fill, values, cls, bounds[w], bounds[w + 1]);
  }

  const rows: RangeStatsRow[] = [];
  const samples = samplePerGroup > 0 ? new Map<string, Float64Array>() : undefined;
  let totalNs = 0;
  for (let g = 0; g < groups; g++) {
    const n = count[g];
    // Groups seen only as parents of counted children have no instances of their own.
    if (n === 0 && unended[g] === 0) continue;
    const lo = offset[g];
    const hi = offset[g + 1];
    // Before quantilesInPlace reorders the group's values.
    samples?.set(grouper.groups[g].key, thinned(values, lo, hi, samplePerGroup));
    const mean = n > 0 ? total[g] / n : NaN;
    let m2 = 0;
    for (let k = lo; k < hi; k++) {
      const d = values[k] - mean;
      m2 += d * d;
    }
    const [median, p90, p99] = n > 0 ? quantilesInPlace(values, lo, hi, [0.5, 0.9, 0.99]) : [NaN, NaN, NaN];
    totalNs += total[g];
    const info = grouper.groups[g];
    // Fields named one by one: a spread into an object this size is ~100x slower in V8 per row.
    rows.push({
      key: info.key,
      label: info.label,
      name: info.name,
      domain: info.domain,
      style: styleText(kinds[g]),
      count: n,
      unended: unended[g],
      totalNs: total[g],
      selfNs: Math.max(0, total[g] - covered[g]),
      avgNs: mean,
      medianNs: median,
      minNs: n > 0 ? min[g] : NaN,
      maxNs: n > 0 ? max[g] : NaN,
      stdDevNs: n > 1 ? Math.sqrt(m2 / (n - 1)) : n === 1 ? 0 : NaN,
      p90Ns: p90,
      p99Ns: p99,
      timePercent: 0,
      maxRange: maxRange[g],
    });
  }
  for (const row of rows) row.timePercent = totalNs > 0 ? (100 * row.totalNs) / totalNs : 0;
  rows.sort((a, b) => b.totalNs - a.totalNs || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) || (a.key < b.key ? -1 : 1));
  return { groupBy, rows, rangeCount, unendedCount: acc.unendedRanges, totalNs, scopeNs: scope.coveredNs, ...(samples ? { samples } : {}) };
}

/** The instances of one group of a table, for histograms, duration bands and jumps. */
export interface GroupInstances {
  /** RangeIndex of each instance, ordered by counted duration ascending (ties: by range index). */
  ranges: Int32Array;
  /** Counted duration of each instance, ascending. */
  durations: Float64Array;
}

/**
 * The ended ranges of the group `key` (a `RangeStatsRow.key` computed with the same options) in
 * the scope, sorted by duration (unended ones have no duration to sort by; see `rangeStats`).
 */
export function rangeInstances(model: Model, options: RangeStatsOptions, key: string): GroupInstances {
  const scope = new ResolvedScope(model, options);
  const grouper = new Grouper(model, options.groupBy ?? 'name');
  let target = -1;
  let checked = 0;
  const found: number[] = [];
  const counted: number[] = [];
  const flags = model.ranges.flags;
  forEachRange(model, scope, (i, cls, m) => {
    if (flags[i] & RangeFlag.Unterminated) return;
    const g = grouper.rangeGroup(i, cls);
    // Compare keys once per newly seen group, not once per range.
    while (checked < grouper.size) {
      if (grouper.groups[checked].key === key) target = checked;
      checked++;
    }
    if (g !== target) return;
    found.push(i);
    counted.push(m);
  });
  const order = Uint32Array.from(found.keys());
  order.sort((a, b) => counted[a] - counted[b] || found[a] - found[b]);
  return {
    ranges: Int32Array.from(order, (k) => found[k]),
    durations: Float64Array.from(order, (k) => counted[k]),
  };
}
