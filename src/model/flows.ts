/**
 * The ranges flow arrows join (`Model.flows`, from Chrome flow events): a flow point binds to the
 * deepest range of its thread's stack that contains it (Chrome's "enclosing slice"), or, when none
 * does, to the first range of the thread starting after it (the "next slice" a flow end without
 * `"bp": "e"` means). Resolved when asked, for one selected range at a time.
 */
import { levelCount, levelWindow } from './query.ts';
import type { Model } from './types.ts';

/** The range a flow point binds to, or -1. */
export function rangeAtPoint(model: Model, thread: number, tNs: number): number {
  const r = model.ranges;
  let next = -1;
  for (const track of model.tracks) {
    if (track.kind !== 'pushpop' || track.thread !== thread) continue;
    for (let level = levelCount(track) - 1; level >= 0; level--) {
      const [first, last] = levelWindow(model, track, level, tNs, tNs);
      for (let i = first; i < last; i++) if (r.startNs[i] <= tNs && tNs <= r.endNs[i]) return i;
    }
    // Nothing contains the point: the first range starting after it, on any level.
    for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
      if (r.startNs[i] >= tNs && (next < 0 || r.startNs[i] < r.startNs[next])) next = i;
    }
  }
  return next;
}

/** Flow arrows that start or end at `range`, as (from, to) range pairs. */
export function flowLinks(model: Model, range: number): [from: number, to: number][] {
  const f = model.flows;
  if (!f) return [];
  const r = model.ranges;
  const thread = r.thread[range];
  if (thread < 0) return [];
  const end = r.endNs[range];
  const out: [number, number][] = [];
  for (let k = 0; k < f.fromNs.length; k++) {
    // A point after the range's end cannot bind to it (cheap test before the search).
    const fromHere = f.fromThread[k] === thread && f.fromNs[k] <= end && rangeAtPoint(model, thread, f.fromNs[k]) === range;
    const toHere = f.toThread[k] === thread && f.toNs[k] <= end && rangeAtPoint(model, thread, f.toNs[k]) === range;
    if (!fromHere && !toHere) continue;
    const from = fromHere ? range : rangeAtPoint(model, f.fromThread[k], f.fromNs[k]);
    const to = toHere ? range : rangeAtPoint(model, f.toThread[k], f.toNs[k]);
    if (from >= 0 && to >= 0 && from !== to) out.push([from, to]);
  }
  return out;
}

/**
 * The ranges of a thread's stack that contain `tNs`, outermost first: the CPU op stack above a CUDA
 * API call (whose own row is beside the thread's stack, not in it).
 */
export function enclosingRanges(model: Model, thread: number, tNs: number): number[] {
  const r = model.ranges;
  const out: number[] = [];
  for (const track of model.tracks) {
    if (track.kind !== 'pushpop' || track.thread !== thread) continue;
    for (let level = 0; level < levelCount(track); level++) {
      const [first, last] = levelWindow(model, track, level, tNs, tNs);
      for (let i = first; i < last; i++) if (r.startNs[i] <= tNs && tNs <= r.endNs[i]) out.push(i);
    }
  }
  return out;
}
