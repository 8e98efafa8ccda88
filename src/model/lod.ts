/**
 * Level-of-detail summaries of the range table, built once with the model (in the load worker) and
 * read while drawing: over aligned blocks of 2^(BASE_SHIFT + m) consecutive ranges (m = 0, 1, ...),
 * the longest duration, the longest step from one start to the next inside the block, and the one
 * style all its ranges share (or MIXED_STYLE). A zoomed-out level, where thousands of ranges fall
 * in each pixel column, is then walked in O(log n) jumps per drawn run instead of one search per
 * column (`subPixelRunEnd`). About 1.5 bytes per range.
 *
 * Blocks are aligned to absolute range indices, so a block may straddle two levels or tracks; it
 * is only ever used when it lies inside one level's [first, last) window, and then it describes
 * ranges of that level only.
 */
import type { RangeColumns, RangeLod } from './types.ts';

export type { RangeLod };

/** Ranges per block of the finest summary level (2^4). */
export const LOD_BASE_SHIFT = 4;
/** `RangeLod.style` of a block holding ranges of different styles. */
export const MIXED_STYLE = 0xffffffff;


/** A float32 not below x (for thresholds that must never let a block pass that its ranges fail). */
function up(x: number): number {
  return Math.fround(x * (1 + 2 ** -20));
}

export function buildRangeLod(ranges: RangeColumns): RangeLod {
  const { startNs, endNs, style } = ranges;
  const n = startNs.length;
  const levelOffset = [0];
  let blocks = n >> LOD_BASE_SHIFT;
  if ((blocks << LOD_BASE_SHIFT) < n) blocks++;
  let total = 0;
  for (let size = blocks; size > 0; size = size > 1 ? (size + 1) >> 1 : 0) {
    total += size;
    levelOffset.push(total);
  }
  const maxDur = new Float32Array(total);
  const maxStep = new Float32Array(total);
  const blockStyle = new Uint32Array(total);
  // The step into each finest block from the range before it: the coarser levels read it here,
  // in block order, instead of two starts a whole block apart in the range table each.
  const joinStep = new Float32Array(blocks);
  summarizeBlocks(startNs, endNs, style, blocks, maxDur, maxStep, blockStyle, joinStep);
  for (let m = 1; m < levelOffset.length - 1; m++) {
    summarizeLevel(levelOffset[m - 1], levelOffset[m], levelOffset[m + 1], m, maxDur, maxStep, blockStyle, joinStep);
  }
  return { startNs, levelOffset, maxDur, maxStep, style: blockStyle };
}

/**
 * Level `m` (blocks [at, end)) from the level below ([child, at)): each block joins two children
 * (or takes a last odd one as it is), its step the larger of theirs and the step from the left
 * child's last range to the right child's first, which is `joinStep` of the right child's first
 * finest block.
 */
function summarizeLevel(
  child: number,
  at: number,
  end: number,
  m: number,
  maxDur: Float32Array,
  maxStep: Float32Array,
  blockStyle: Uint32Array,
  joinStep: Float32Array,
): void {
  const childCount = at - child;
  for (let b = 0; b < end - at; b++) {
    const left = child + 2 * b;
    if (2 * b + 1 >= childCount) {
      maxDur[at + b] = maxDur[left];
      maxStep[at + b] = maxStep[left];
      blockStyle[at + b] = blockStyle[left];
      continue;
    }
    const right = left + 1;
    maxDur[at + b] = Math.max(maxDur[left], maxDur[right]);
    maxStep[at + b] = Math.max(maxStep[left], maxStep[right], joinStep[(2 * b + 1) << (m - 1)]);
    blockStyle[at + b] = blockStyle[left] === blockStyle[right] ? blockStyle[left] : MIXED_STYLE;
  }
}

/**
 * The finest level: each block's longest duration, longest start-to-start step (Infinity when a
 * start goes back) and shared style; and each block's `joinStep`, the step from the range before
 * it to its first (as a step is stored: Infinity when it goes back; 0 for the first block). Its own function, with the style test as a xor and no
 * double-valued style (MIXED_STYLE is above 2^31) in the loop: the one long loop over every range
 * then runs as integer and float64 code (docs/performance.md; lod.test.ts compares it with the
 * earlier loop).
 */
function summarizeBlocks(
  startNs: Float64Array,
  endNs: Float64Array,
  style: Uint32Array,
  blocks: number,
  maxDur: Float32Array,
  maxStep: Float32Array,
  blockStyle: Uint32Array,
  joinStep: Float32Array,
): void {
  const n = startNs.length;
  const base = 1 << LOD_BASE_SHIFT;
  for (let b = 0; b < blocks; b++) {
    const lo = b * base;
    const hi = Math.min(n, lo + base);
    let prev = startNs[lo];
    if (b > 0) {
      const join = prev - startNs[lo - 1];
      joinStep[b] = join < 0 ? Infinity : up(join);
    }
    let dur = endNs[lo] - prev;
    let step = 0;
    let back = false;
    const first = style[lo];
    let differs = 0;
    for (let k = lo + 1; k < hi; k++) {
      const s = startNs[k];
      const d = endNs[k] - s;
      if (d > dur) dur = d;
      const gap = s - prev;
      if (gap > step) step = gap;
      if (gap < 0) back = true;
      prev = s;
      differs |= style[k] ^ first;
    }
    maxDur[b] = up(dur);
    maxStep[b] = back ? Infinity : up(step);
    blockStyle[b] = differs !== 0 ? MIXED_STYLE : first;
  }
}

/**
 * From range `at` of a level window [.., last): the end of the run of ranges that are each shorter
 * than `nsPerPx` and each start less than `nsPerPx` after the previous one (so their starts fill
 * adjacent pixel columns). Returns the first range not in the run (`at` itself when it is not
 * shorter than a pixel); the connection of that range to the run is left to the caller. Sets
 * `out.mixed` when a range passed over has a style other than `runStyle`.
 */
export function subPixelRunEnd(
  lod: RangeLod,
  ranges: RangeColumns,
  at: number,
  last: number,
  nsPerPx: number,
  runStyle: number,
  out: { mixed: boolean },
): number {
  const { startNs, endNs, style } = ranges;
  const { levelOffset, maxDur, maxStep } = lod;
  const levels = levelOffset.length - 1;
  let mixed = false;
  while (at < last) {
    if ((at & ((1 << LOD_BASE_SHIFT) - 1)) === 0 && at + (1 << LOD_BASE_SHIFT) <= last) {
      // The largest aligned block from `at` inside the window whose ranges all qualify.
      let taken = 0;
      let m = 0;
      while (m + 1 < levels && (at & ((1 << (LOD_BASE_SHIFT + m + 1)) - 1)) === 0 && at + (1 << (LOD_BASE_SHIFT + m + 1)) <= last) m++;
      for (; m >= 0; m--) {
        const b = levelOffset[m] + (at >> (LOD_BASE_SHIFT + m));
        if (maxDur[b] < nsPerPx && maxStep[b] < nsPerPx) {
          if (lod.style[b] !== runStyle) mixed = true;
          taken = 1 << (LOD_BASE_SHIFT + m);
          break;
        }
      }
      if (taken > 0) {
        at += taken;
        if (at < last && !(startNs[at] - startNs[at - 1] < nsPerPx)) break;
        continue;
      }
    }
    if (!(endNs[at] - startNs[at] < nsPerPx)) break;
    if (style[at] !== runStyle) mixed = true;
    at++;
    if (at < last && !(startNs[at] - startNs[at - 1] < nsPerPx)) break;
  }
  if (mixed) out.mixed = true;
  return at;
}
