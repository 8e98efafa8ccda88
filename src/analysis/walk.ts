/**
 * How every range statistic finds its ranges: level by level of each track in scope, only the
 * run of ranges that can meet the scope (two binary searches per level through `levelWindow`).
 * Callers loop over each window themselves, so the per-range work stays in one tight loop.
 */
import { levelWindow } from '../model/query.ts';
import type { Model, Track } from '../model/types.ts';
import { kindClass } from './groups.ts';
import type { ResolvedScope } from './scope.ts';

/**
 * Receives ranges [first, last) of `level` of `track` (kind class `cls`). With spans, the window
 * holds every range meeting the scope plus, at levels > 0, the children that matter for the
 * self time of their parents; callers still test each range with `scope.measure`.
 */
export type WindowVisitor = (track: Track, cls: number, level: number, first: number, last: number) => void;

export function forEachWindow(model: Model, scope: ResolvedScope, visit: WindowVisitor): void {
  const { startNs, endNs } = model.ranges;
  const overlap = !scope.whole && scope.mode === 'overlap';
  for (const track of scope.tracks) {
    const cls = kindClass(track.kind);
    const levels = track.levelBegin.length - 1;
    // Overlap mode counts whole parents, so their children outside the spans matter too: each
    // level's window grows to the extent of the window above.
    let wFrom = scope.minNs;
    let wTo = scope.maxNs;
    for (let d = 0; d < levels; d++) {
      let a: number;
      let b: number;
      if (scope.whole) {
        a = track.levelBegin[d];
        b = track.levelBegin[d + 1];
      } else {
        [a, b] = levelWindow(model, track, d, wFrom, wTo);
      }
      if (b > a) visit(track, cls, d, a, b);
      if (overlap && b > a) {
        if (startNs[a] < wFrom) wFrom = startNs[a];
        if (endNs[b - 1] > wTo) wTo = endNs[b - 1];
      }
    }
  }
}

/** The windows of one track: level d is ranges [bounds[2d], bounds[2d + 1]) (possibly empty). */
export interface TrackWindows {
  cls: number;
  bounds: Int32Array;
}

/** Every track's windows, all levels included, for callers that walk a track level by level. */
export function trackWindows(model: Model, scope: ResolvedScope): TrackWindows[] {
  const out: TrackWindows[] = [];
  const index = new Map<Track, TrackWindows>();
  for (const track of scope.tracks) {
    const entry = { cls: kindClass(track.kind), bounds: new Int32Array(2 * (track.levelBegin.length - 1)) };
    // Levels forEachWindow skips (empty windows) stay [0, 0).
    index.set(track, entry);
    out.push(entry);
  }
  forEachWindow(model, scope, (track, _cls, level, a, b) => {
    const bounds = index.get(track)!.bounds;
    bounds[2 * level] = a;
    bounds[2 * level + 1] = b;
  });
  return out;
}

/** Calls `visit(range, cls, countedNs)` for every range in scope that the filters show. */
export function forEachRange(
  model: Model,
  scope: ResolvedScope,
  visit: (range: number, cls: number, countedNs: number) => void,
): void {
  const { startNs, endNs, style, thread } = model.ranges;
  const filtered = scope.filtered;
  forEachWindow(model, scope, (_track, cls, _level, a, b) => {
    for (let i = a; i < b; i++) {
      if (filtered && !scope.shown(style[i], thread[i])) continue;
      const m = scope.measure(startNs[i], endNs[i]);
      if (m >= 0) visit(i, cls, m);
    }
  });
}
