/**
 * The pure parts of the duration-over-time plot (`DurationOverTimeCanvas.tsx`): the instances'
 * start-time extent, their reduction to one min/max pair per pixel column (so a draw costs one
 * step per column however many instances there are), the two scales and the point under the
 * pointer. Instances are a detail's `GroupInstances` (the histogram's), positions index into it.
 */
import type { GroupInstances } from '../../analysis/rangeStats.ts';

/** Earliest and latest start of the instances (both 0 when there are none). */
export function startExtent(instances: GroupInstances, startNs: Float64Array): { fromNs: number; toNs: number } {
  const ranges = instances.ranges;
  if (ranges.length === 0) return { fromNs: 0, toNs: 0 };
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < ranges.length; k++) {
    const t = startNs[ranges[k]];
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  return { fromNs: lo, toNs: hi };
}

/** Column of a start time: [fromNs, toNs] maps onto columns 0..columns-1 (a zero-width extent onto the middle one). */
export function columnOfStart(tNs: number, fromNs: number, toNs: number, columns: number): number {
  if (toNs <= fromNs) return Math.floor(columns / 2);
  const c = Math.floor(((tNs - fromNs) / (toNs - fromNs)) * columns);
  return c < 0 ? 0 : c >= columns ? columns - 1 : c;
}

/** Per pixel column, the shortest and the longest instance starting in it (positions; -1 where none). */
export interface TimeColumns {
  columns: number;
  fromNs: number;
  toNs: number;
  minAt: Int32Array;
  maxAt: Int32Array;
}

/**
 * One pass over the instances. Durations ascend with the position, so a column's shortest is the
 * first position seen in it and its longest the last.
 */
export function reduceToColumns(instances: GroupInstances, startNs: Float64Array, columns: number): TimeColumns {
  const n = Math.max(1, Math.floor(columns));
  const { fromNs, toNs } = startExtent(instances, startNs);
  const minAt = new Int32Array(n).fill(-1);
  const maxAt = new Int32Array(n).fill(-1);
  const ranges = instances.ranges;
  const span = toNs - fromNs;
  const mid = Math.floor(n / 2);
  const perNs = span > 0 ? n / span : 0;
  for (let k = 0; k < ranges.length; k++) {
    let c = span > 0 ? Math.floor((startNs[ranges[k]] - fromNs) * perNs) : mid;
    if (c >= n) c = n - 1;
    if (minAt[c] < 0) minAt[c] = k;
    maxAt[c] = k;
  }
  return { columns: n, fromNs, toNs, minAt, maxAt };
}

/** Linear duration scale: 0 at the bottom (`baseY`), `topNs` at `topY`. */
export function durationY(ns: number, topNs: number, topY: number, baseY: number): number {
  if (!(topNs > 0)) return baseY;
  const y = baseY - (ns / topNs) * (baseY - topY);
  return y < topY ? topY : y > baseY ? baseY : y;
}

/** The middle of column `c` in CSS pixels when `columns` columns fill `widthCss`. */
export function columnX(c: number, columns: number, widthCss: number): number {
  return ((c + 0.5) / columns) * widthCss;
}

/**
 * The instance drawn nearest the pointer (the shortest or longest of a column within `radiusCss`
 * columns' distance), or -1. `yOf` maps an instance position to its y.
 */
export function pointNear(cols: TimeColumns, xCss: number, yCss: number, widthCss: number, yOf: (position: number) => number, radiusCss: number): number {
  const pxPerCol = widthCss / cols.columns;
  const c0 = Math.max(0, Math.floor((xCss - radiusCss) / pxPerCol));
  const c1 = Math.min(cols.columns - 1, Math.floor((xCss + radiusCss) / pxPerCol));
  let best = -1;
  let bestD = Infinity;
  for (let c = c0; c <= c1; c++) {
    const cx = columnX(c, cols.columns, widthCss);
    for (const k of [cols.minAt[c], cols.maxAt[c]]) {
      if (k < 0) continue;
      // Horizontal distance counts fully; vertical only as a tie-break between a column's two ends.
      const d = Math.abs(cx - xCss) + Math.abs(yOf(k) - yCss) / 8;
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    }
  }
  return best;
}

/**
 * Columns that fine columns fold into (fine column f goes to column ⌊f·columns/fine.columns⌋), at
 * most as many as the fine ones: a resize costs O(fine columns), not another pass over the
 * instances. Positions order durations, so a merged column's shortest is its least position.
 */
export function mergeColumns(fine: TimeColumns, columns: number): TimeColumns {
  const n = Math.max(1, Math.min(fine.columns, Math.floor(columns)));
  if (n === fine.columns) return fine;
  const minAt = new Int32Array(n).fill(-1);
  const maxAt = new Int32Array(n).fill(-1);
  for (let f = 0; f < fine.columns; f++) {
    const lo = fine.minAt[f];
    if (lo < 0) continue;
    const c = Math.floor((f * n) / fine.columns);
    if (minAt[c] < 0 || lo < minAt[c]) minAt[c] = lo;
    if (fine.maxAt[f] > maxAt[c]) maxAt[c] = fine.maxAt[f];
  }
  return { columns: n, fromNs: fine.fromNs, toNs: fine.toNs, minAt, maxAt };
}
