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
  // busy: min-heap of (end, lane) for occupied lanes; free: min-heap of lane numbers.
  const busyEnd: number[] = [];
  const busyLane: number[] = [];
  const free: number[] = [];
  let laneCount = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const s = start[i];
    while (busyEnd.length > 0 && busyEnd[0] <= s) {
      const l = busyLane[0];
      heapPopPair(busyEnd, busyLane);
      heapPush(free, l);
    }
    let l: number;
    if (free.length > 0) {
      l = free[0];
      heapPop(free);
    } else {
      l = laneCount++;
    }
    lane[i] = Math.min(l, 0xffff);
    heapPushPair(busyEnd, busyLane, end[i], l);
  }
  return { order, lane, laneCount };
}

function heapPush(h: number[], v: number): void {
  h.push(v);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p] <= h[i]) break;
    [h[p], h[i]] = [h[i], h[p]];
    i = p;
  }
}

function heapPop(h: number[]): void {
  const last = h.pop()!;
  if (h.length === 0) return;
  h[0] = last;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < h.length && h[l] < h[m]) m = l;
    if (r < h.length && h[r] < h[m]) m = r;
    if (m === i) return;
    [h[m], h[i]] = [h[i], h[m]];
    i = m;
  }
}

function heapPushPair(key: number[], val: number[], k: number, v: number): void {
  key.push(k);
  val.push(v);
  let i = key.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (key[p] <= key[i]) break;
    swap(key, val, p, i);
    i = p;
  }
}

function heapPopPair(key: number[], val: number[]): void {
  const lk = key.pop()!;
  const lv = val.pop()!;
  if (key.length === 0) return;
  key[0] = lk;
  val[0] = lv;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < key.length && key[l] < key[m]) m = l;
    if (r < key.length && key[r] < key[m]) m = r;
    if (m === i) return;
    swap(key, val, m, i);
    i = m;
  }
}

function swap(key: number[], val: number[], a: number, b: number): void {
  [key[a], key[b]] = [key[b], key[a]];
  [val[a], val[b]] = [val[b], val[a]];
}
