/**
 * Optimal interval partitioning: assigns overlapping ranges to the fewest lanes (the maximum
 * number of ranges open at one instant). Ranges are taken by start; each goes to the lowest-numbered
 * lane that is free, so lanes stay visually stable. A range ending at t frees its lane for one
 * starting at t.
 */
import { orderByStart } from './orderByStart.ts';

export interface LanePacking {
  /** Range indices ordered by (start, end, index). */
  order: Uint32Array;
  /** Lane of each range (by range index). */
  lane: Uint16Array;
  laneCount: number;
}

export function packLanes(start: ArrayLike<number>, end: ArrayLike<number>): LanePacking {
  const n = start.length;
  const order = orderByStart(start, end, false);
  const lane = new Uint16Array(n);
  const few = packFewLanes(start, end, order, lane);
  const laneCount = few >= 0 ? few : packLanesWithHeaps(start, end, order, lane);
  return { order, lane, laneCount };
}

/**
 * The general packing, for any number of lanes: ranges taken in `order` (by start), lanes chosen
 * with a min-heap of busy lanes by end and a min-heap of free lane numbers. Writes `lane`; returns
 * the lane count.
 */
export function packLanesWithHeaps(start: ArrayLike<number>, end: ArrayLike<number>, order: Uint32Array, lane: Uint16Array): number {
  const n = order.length;
  // busy: min-heap of (end, lane) for occupied lanes; free: min-heap of lane numbers. Typed arrays
  // of the largest size they can reach: JS arrays of doubles here boxed every popped end time and
  // the destructuring swaps allocated (about 90 MB of garbage for 120k async ranges).
  const heaps = new LaneHeaps(n);
  let laneCount = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const s = start[i];
    while (heaps.busySize > 0 && heaps.busyEnd[0] <= s) {
      const l = heaps.busyLane[0];
      heaps.popBusy();
      heaps.pushFree(l);
    }
    let l: number;
    if (heaps.freeSize > 0) {
      l = heaps.free[0];
      heaps.popFree();
    } else {
      l = laneCount++;
    }
    lane[i] = Math.min(l, 0xffff);
    heaps.pushBusy(end[i], l);
  }
  return laneCount;
}

/** Lanes searched one by one: up to here a scan of the lanes' last ends beats the two heaps (docs/performance.md). */
const FEW_LANES = 128;

/**
 * `packLanes` for rows of at most FEW_LANES lanes: each range takes the first lane whose last range
 * has ended by its start, found by scanning the lanes' last ends. The same lanes as the heaps (a
 * lane is free exactly when its last end <= the start). Returns the lane count, or -1 when the row
 * needs more lanes or has a NaN time (the heaps then decide, as they always did).
 */
function packFewLanes(start: ArrayLike<number>, end: ArrayLike<number>, order: Uint32Array, lane: Uint16Array): number {
  const laneEnd = new Float64Array(FEW_LANES);
  let count = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const s = start[i];
    const e = end[i];
    if (s !== s || e !== e) return -1;
    let l = 0;
    while (l < count && laneEnd[l] > s) l++;
    if (l === count) {
      if (count === FEW_LANES) return -1;
      count++;
    }
    laneEnd[l] = e;
    lane[i] = l;
  }
  return count;
}

/** The two heaps of `packLanes` (same comparisons and swaps as plain binary heaps, so the same lanes). */
class LaneHeaps {
  readonly busyEnd: Float64Array;
  readonly busyLane: Int32Array;
  busySize = 0;
  readonly free: Int32Array;
  freeSize = 0;

  constructor(n: number) {
    this.busyEnd = new Float64Array(n);
    this.busyLane = new Int32Array(n);
    this.free = new Int32Array(n);
  }

  pushFree(v: number): void {
    const h = this.free;
    let i = this.freeSize++;
    h[i] = v;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p] <= h[i]) break;
      const t = h[p];
      h[p] = h[i];
      h[i] = t;
      i = p;
    }
  }

  popFree(): void {
    const h = this.free;
    const size = --this.freeSize;
    if (size === 0) return;
    h[0] = h[size];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && h[l] < h[m]) m = l;
      if (r < size && h[r] < h[m]) m = r;
      if (m === i) return;
      const t = h[m];
      h[m] = h[i];
      h[i] = t;
      i = m;
    }
  }

  pushBusy(k: number, v: number): void {
    const key = this.busyEnd;
    const val = this.busyLane;
    let i = this.busySize++;
    key[i] = k;
    val[i] = v;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (key[p] <= key[i]) break;
      this.swapBusy(p, i);
      i = p;
    }
  }

  popBusy(): void {
    const key = this.busyEnd;
    const val = this.busyLane;
    const size = --this.busySize;
    if (size === 0) return;
    key[0] = key[size];
    val[0] = val[size];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && key[l] < key[m]) m = l;
      if (r < size && key[r] < key[m]) m = r;
      if (m === i) return;
      this.swapBusy(m, i);
      i = m;
    }
  }

  private swapBusy(a: number, b: number): void {
    const key = this.busyEnd;
    const val = this.busyLane;
    const k = key[a];
    key[a] = key[b];
    key[b] = k;
    const v = val[a];
    val[a] = val[b];
    val[b] = v;
  }
}
