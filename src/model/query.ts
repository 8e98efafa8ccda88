/** Small read helpers over the columnar model, shared by the timeline, panels, statistics and CLI. */
import type { Model, Track } from './types.ts';

export function styleName(model: Model, style: number): string {
  return model.strings[model.styles.name[style]];
}

export function rangeName(model: Model, range: number): string {
  return styleName(model, model.ranges.style[range]);
}

export function markName(model: Model, mark: number): string {
  return styleName(model, model.marks.style[mark]);
}

/** Index of the track holding range `range` (tracks own contiguous range slices). */
export function trackOfRange(model: Model, range: number): number {
  const tracks = model.tracks;
  let lo = 0;
  let hi = tracks.length - 1;
  // Tracks are in range order, but some own no ranges: search over rangeBegin, then skip empties.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tracks[mid].rangeBegin <= range) lo = mid;
    else hi = mid - 1;
  }
  while (lo > 0 && tracks[lo].rangeEnd <= range) lo--;
  while (lo < tracks.length && !(range >= tracks[lo].rangeBegin && range < tracks[lo].rangeEnd)) lo++;
  return lo < tracks.length ? lo : -1;
}

/** Index of the marks track holding mark `mark`. */
export function trackOfMark(model: Model, mark: number): number {
  return model.tracks.findIndex((t) => mark >= t.markBegin && mark < t.markEnd);
}

/** First index in [lo, hi) whose value is >= x, for a non-decreasing column. */
export function lowerBound(values: ArrayLike<number>, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose value is > x, for a non-decreasing column. */
export function upperBound(values: ArrayLike<number>, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of depth levels (stack depth or lanes) of a track. */
export function levelCount(track: Track): number {
  return track.levelBegin.length - 1;
}

/**
 * Ranges of one level of a track that intersect [t0, t1]: [first, last) as absolute RangeIndex.
 * Within a level ranges do not overlap, so both start and end are non-decreasing.
 */
export function levelWindow(model: Model, track: Track, level: number, t0: number, t1: number): [number, number] {
  const lo = track.levelBegin[level];
  const hi = track.levelBegin[level + 1];
  const first = lowerBound(model.ranges.endNs, t0, lo, hi);
  const last = upperBound(model.ranges.startNs, t1, first, hi);
  return [first, last];
}

/** Direct children of a range on a stacked row: the ranges one level deeper inside its span. */
export function childrenOf(model: Model, range: number): number[] {
  const track = model.tracks[trackOfRange(model, range)];
  const level = model.ranges.depth[range] + 1;
  if (level >= levelCount(track)) return [];
  const [first, last] = levelWindow(model, track, level, model.ranges.startNs[range], model.ranges.endNs[range]);
  const out: number[] = [];
  for (let i = first; i < last; i++) if (model.ranges.parent[i] === range) out.push(i);
  return out;
}

/**
 * Duration minus the time covered by direct children (children of one parent do not overlap). A
 * child overlapping its parent's end (RangeFlag.BadNesting) covers only up to that end.
 */
export function selfTime(model: Model, range: number): number {
  const end = model.ranges.endNs[range];
  let covered = 0;
  for (const c of childrenOf(model, range)) covered += Math.min(model.ranges.endNs[c], end) - model.ranges.startNs[c];
  return end - model.ranges.startNs[range] - covered;
}

/** Correlation id of a range (e.g. a CUDA API call or the GPU work it launched), or undefined. */
export function correlationIdOf(model: Model, range: number): number | undefined {
  const c = model.correlation;
  if (!c) return undefined;
  const k = lowerBound(c.range, range, 0, c.range.length);
  return k < c.range.length && c.range[k] === range ? c.id[k] : undefined;
}

/** The other ranges sharing `range`'s correlation id (an API call's GPU work, or the call of a kernel). */
export function correlatedRanges(model: Model, range: number): number[] {
  const c = model.correlation;
  const id = correlationIdOf(model, range);
  if (!c || id === undefined) return [];
  // First position of `id` in the id-ordered permutation.
  let lo = 0;
  let hi = c.byId.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.id[c.byId[mid]] < id) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let k = lo; k < c.byId.length && c.id[c.byId[k]] === id; k++) {
    const other = c.range[c.byId[k]];
    if (other !== range) out.push(other);
  }
  return out;
}

/**
 * Whether `total` is the running-total row a decoder derived from the delta counter row `delta`
 * (same owner and path, labelled after it, one sample per sample of it).
 */
function isRunningTotalOf(total: Track, delta: Track): boolean {
  return (
    total.counter?.derived === 'runningTotal' &&
    delta.counter?.valueType === 'delta' &&
    total.counter.source === delta.label &&
    total.process === delta.process &&
    total.thread === delta.thread &&
    total.path.join('\u0000') === delta.path.join('\u0000') &&
    total.counterEnd - total.counterBegin === delta.counterEnd - delta.counterBegin
  );
}

/** The running-total row derived from delta counter row `delta`, or -1. */
export function runningTotalTrack(model: Model, delta: number): number {
  return model.tracks.findIndex((t) => isRunningTotalOf(t, model.tracks[delta]));
}

/** The delta counter row that derived running-total row `total` sums, or -1. */
export function runningTotalSource(model: Model, total: number): number {
  return model.tracks.findIndex((t) => isRunningTotalOf(model.tracks[total], t));
}
