/**
 * The nesting layouts of a row, at finish: by time nesting (complete ranges), by push/pop event
 * order (push/pop rows), packed lanes (start/end and GPU rows), each giving the row's ranges in
 * final order (by level, then by start), their depth or lane, parent and extra flags; and rows
 * resolved on arrival, whose depth and parent are known, as each range's place (`layoutOnline`).
 */
import { packLanes } from '../lanes.ts';
import { orderByStart } from '../orderByStart.ts';
import { RangeFlag } from '../types.ts';
import type { OnlineStack, RowMeta } from './rows.ts';

export interface Layout {
  /** Row-local indices in final order: by level, then by start. */
  order: Uint32Array;
  depth: Uint16Array;
  parent: Int32Array;
  extraFlags: Uint8Array;
  levelCounts: number[];
  /** Row-local ranges nested deeper than MAX_DEPTH (1 = dropped), when there are any. */
  dropped?: Uint8Array;
}

/** Deepest nesting level kept (the depth column is 16-bit): ranges deeper are dropped with a warning. */
export const MAX_DEPTH = 0xffff;

/** Called for a range that overlaps the end of its parent (drawn one level deeper), by row-local index. */
export type BadNestingReport = (row: RowMeta, index: number) => void;

/** The layout of a row by its kind: stack rows nest, lane rows pack. */
export function layoutRow(row: RowMeta, onBadNesting: BadNestingReport): Layout {
  // Rows resolved on arrival are laid out by `layoutOnline`.
  return row.layout === 'stack' ? layoutStack(row, onBadNesting) : layoutLanes(row);
}

/**
 * Depth and parent by nesting: order by (start asc, end desc), keep a stack of open ends. Rows
 * made only of push/pop events nest exactly as their stack did (`layoutPushPop`).
 */
function layoutStack(row: RowMeta, onBadNesting: BadNestingReport): Layout {
  const ev = row.events;
  const n = ev.start.length;
  if (ev.rankOpen.length === n) return layoutPushPop(row);
  const start = ev.start.view();
  const end = ev.end.view();
  const order = orderByStart(start, end, true);
  const depth = new Uint16Array(n);
  const parent = new Int32Array(n).fill(-1);
  const extraFlags = new Uint8Array(n);
  const stack: number[] = [];
  const levelCounts: number[] = [];
  let dropped: Uint8Array | undefined;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    while (stack.length > 0 && end[stack[stack.length - 1]] <= start[i]) stack.pop();
    if (stack.length > 0) {
      const p = stack[stack.length - 1];
      parent[i] = p;
      if (end[i] > end[p]) {
        extraFlags[i] = RangeFlag.BadNesting;
        onBadNesting(row, i);
      }
    }
    const d = stack.length;
    stack.push(i);
    if (d > MAX_DEPTH) {
      (dropped ??= new Uint8Array(n))[i] = 1;
      continue;
    }
    depth[i] = d;
    levelCounts[d] = (levelCounts[d] ?? 0) + 1;
  }
  return { order: byLevel(order, depth, levelCounts, dropped), depth, parent, extraFlags, levelCounts, dropped };
}

/**
 * Nesting of push/pop ranges from the order of their events: a range's ancestors are the ranges
 * still open when it was pushed. Equal timestamps cannot swap a parent and its child, and a
 * zero-length range at its parent's end stays inside it.
 */
function layoutPushPop(row: RowMeta): Layout {
  const ev = row.events;
  const n = ev.start.length;
  const open = ev.rankOpen.view();
  const close = ev.rankClose.view();
  // Ranks are distinct small integers: place ranges by push rank instead of sorting.
  let maxRank = 0;
  for (let i = 0; i < n; i++) if (open[i] > maxRank) maxRank = open[i];
  const byRank = new Int32Array(maxRank + 1).fill(-1);
  for (let i = 0; i < n; i++) byRank[open[i]] = i;
  const order = new Uint32Array(n);
  let k = 0;
  for (let r = 0; r <= maxRank; r++) if (byRank[r] >= 0) order[k++] = byRank[r];
  const depth = new Uint16Array(n);
  const parent = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  const levelCounts: number[] = [];
  let dropped: Uint8Array | undefined;
  for (k = 0; k < n; k++) {
    const i = order[k];
    while (stack.length > 0 && close[stack[stack.length - 1]] < open[i]) stack.pop();
    if (stack.length > 0) parent[i] = stack[stack.length - 1];
    const d = stack.length;
    stack.push(i);
    if (d > MAX_DEPTH) {
      (dropped ??= new Uint8Array(n))[i] = 1;
      continue;
    }
    depth[i] = d;
    levelCounts[d] = (levelCounts[d] ?? 0) + 1;
  }
  return { order: byLevel(order, depth, levelCounts, dropped), depth, parent, extraFlags: new Uint8Array(n), levelCounts, dropped };
}

/**
 * Layout of a row resolved on arrival: depth and parent are known and levels keep push order, so
 * a range's place is its level's first place plus the ranges pushed at its depth before it, and
 * its parent's is the level above's first place plus `OnlineStack.parentRank`. The ranges are
 * then written to the model in push order (`placeOnlineRow`: sequential reads, a write stream per
 * level) instead of gathered level by level, with no pass over the row here.
 */
export interface OnlineLayout {
  /** Ranges placed (all but the dropped ones). */
  placed: number;
  /** Ranges per level kept (depth <= MAX_DEPTH). */
  levelCounts: number[];
  /** Ranges nested deeper than MAX_DEPTH (1 = dropped), when there are any. */
  dropped?: Uint8Array;
}

export function layoutOnline(on: OnlineStack): OnlineLayout {
  const levelCounts = on.levelCounts.slice(0, MAX_DEPTH + 1);
  let placed = 0;
  for (const count of levelCounts) placed += count;
  let dropped: Uint8Array | undefined;
  if (on.levelCounts.length > MAX_DEPTH + 1) {
    dropped = new Uint8Array(on.count);
    for (let i = 0; i < on.count; i++) if (on.depth[i] > MAX_DEPTH) dropped[i] = 1;
  }
  return { placed, levelCounts, dropped };
}

/** Fewest lanes for overlapping ranges (optimal interval partitioning). */
function layoutLanes(row: RowMeta): Layout {
  const ev = row.events;
  const n = ev.start.length;
  const { order, lane, laneCount } = packLanes(ev.start.view(), ev.end.view());
  const levelCounts = new Array<number>(laneCount).fill(0);
  for (let i = 0; i < n; i++) levelCounts[lane[i]]++;
  return {
    order: byLevel(order, lane, levelCounts),
    depth: lane,
    parent: new Int32Array(n).fill(-1),
    extraFlags: new Uint8Array(n),
    levelCounts,
  };
}

/** Stable bucket of a start-ordered permutation by level; dropped ranges are left out. */
function byLevel(startOrder: Uint32Array, level: Uint16Array, levelCounts: number[], dropped?: Uint8Array): Uint32Array {
  const offset: number[] = [];
  let acc = 0;
  for (let d = 0; d < levelCounts.length; d++) {
    offset[d] = acc;
    acc += levelCounts[d] ?? 0;
  }
  const out = new Uint32Array(acc);
  for (let k = 0; k < startOrder.length; k++) {
    const i = startOrder[k];
    if (dropped?.[i]) continue;
    out[offset[level[i]]++] = i;
  }
  return out;
}

/**
 * Permutation sorting `t` ascending, stable (arrival order breaks ties); identity when already
 * sorted. The radix sort of `orderByStart` with `t` as its own tie key: the same order as a stable
 * comparator sort (which it falls back to for non-integer times or a NaN), without the comparator.
 */
export function sortedOrder(t: Float64Array): Uint32Array {
  return orderByStart(t, t, false);
}
