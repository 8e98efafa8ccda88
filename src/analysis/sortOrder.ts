/**
 * Stable sorting of row permutations by a numeric key column, for tables of millions of rows:
 * an LSD radix sort on 16-bit digits (at most four passes, fewer when the keys share their high
 * digits), O(n) time, no comparator calls and no object per row. Ties keep their order in the
 * input, so sorting by one column after another gives a multi-key order.
 */

const TWO_32 = 2 ** 32;

/** Sort keys: a column indexed by row id, or a function of the row id. */
export type SortKeys = ArrayLike<number> | ((id: number) => number);

/**
 * The keys of `order[k]` as two unsigned 32-bit halves (per position k) whose unsigned order is the
 * numeric order. Non-negative integer keys below 2^53 (times, durations, ranks) split exactly into
 * (floor(v / 2^32), v mod 2^32), whose high half is small, so the top passes are usually skipped.
 * Anything else goes through the IEEE bits: positive doubles order like their bit patterns,
 * negative ones with all bits flipped.
 */
function splitKeys(order: Uint32Array, keys: SortKeys, descending: boolean): { hi: Uint32Array; lo: Uint32Array } {
  const n = order.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const key = typeof keys === 'function' ? keys : (id: number) => keys[id];
  let integral = true;
  for (let k = 0; k < n; k++) {
    const v = key(order[k]);
    if (!(v >= 0 && v <= Number.MAX_SAFE_INTEGER && Math.floor(v) === v)) {
      integral = false;
      break;
    }
    const h = Math.floor(v / TWO_32);
    hi[k] = h;
    lo[k] = v - h * TWO_32;
  }
  if (!integral) {
    const f = new Float64Array(1);
    const words = new Uint32Array(f.buffer);
    // Little-endian hosts (every browser and Node platform in use) keep the low word first.
    const L = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
    for (let k = 0; k < n; k++) {
      const v = key(order[k]);
      // -0 sorts with +0; every NaN after +Infinity.
      f[0] = v === 0 ? 0 : Number.isNaN(v) ? NaN : v;
      let h = words[1 - L];
      let l = words[L];
      if (h & 0x80000000) {
        h = ~h >>> 0;
        l = ~l >>> 0;
      } else {
        h = (h | 0x80000000) >>> 0;
      }
      hi[k] = h;
      lo[k] = l;
    }
  }
  if (descending) {
    for (let k = 0; k < n; k++) {
      hi[k] = ~hi[k] >>> 0;
      lo[k] = ~lo[k] >>> 0;
    }
  }
  return { hi, lo };
}

const RADIX = 1 << 16;
/** Below this many rows a comparator sort beats clearing 64K counters per pass. */
const SMALL = 1024;

/**
 * `order` (values are row ids) stably sorted by the rows' keys: ascending, or descending with ties
 * still in input order. Returns a new array; `order` is left as it was. NaN keys come last
 * ascending (first descending). Memory: a few arrays of `order.length`, whatever the id range.
 */
export function sortOrder(order: Uint32Array, keys: SortKeys, descending = false): Uint32Array {
  const n = order.length;
  if (n < 2) return order.slice();
  let { hi, lo } = splitKeys(order, keys, descending);
  if (n < SMALL) {
    // Array.prototype.sort is stable.
    const positions = Array.from({ length: n }, (_, k) => k);
    positions.sort((a, b) => (hi[a] !== hi[b] ? (hi[a] < hi[b] ? -1 : 1) : lo[a] !== lo[b] ? (lo[a] < lo[b] ? -1 : 1) : 0));
    return Uint32Array.from(positions, (k) => order[k]);
  }
  // All four digit histograms in one read of the keys; a digit every row shares orders nothing.
  const count = new Uint32Array(4 * RADIX);
  for (let k = 0; k < n; k++) {
    const l = lo[k];
    const h = hi[k];
    count[l & 0xffff]++;
    count[RADIX + (l >>> 16)]++;
    count[2 * RADIX + (h & 0xffff)]++;
    count[3 * RADIX + (h >>> 16)]++;
  }
  const passes: number[] = [];
  for (let d = 0; d < 4; d++) {
    const word = d < 2 ? lo[0] : hi[0];
    const digit = d % 2 === 0 ? word & 0xffff : word >>> 16;
    if (count[d * RADIX + digit] !== n) passes.push(d);
  }
  // Row ids move with their keys, so every pass reads sequentially; only the key words later
  // passes still need are carried.
  let ids = order.slice();
  let idsOut = new Uint32Array(n);
  let loOut = passes.some((d, i) => d < 2 && i > 0) ? new Uint32Array(n) : lo;
  let hiOut = passes.some((d) => d >= 2) ? new Uint32Array(n) : hi;
  for (let p = 0; p < passes.length; p++) {
    const d = passes[p];
    const base = d * RADIX;
    let sum = 0;
    for (let b = base; b < base + RADIX; b++) {
      const c = count[b];
      count[b] = sum;
      sum += c;
    }
    const words = d < 2 ? lo : hi;
    const shift = d % 2 === 0 ? 0 : 16;
    const later = passes.slice(p + 1);
    const carryLo = later.some((x) => x < 2);
    const carryHi = later.some((x) => x >= 2);
    for (let k = 0; k < n; k++) {
      const at = base + ((words[k] >>> shift) & 0xffff);
      const to = count[at]++;
      idsOut[to] = ids[k];
      if (carryLo) loOut[to] = lo[k];
      if (carryHi) hiOut[to] = hi[k];
    }
    [ids, idsOut] = [idsOut, ids];
    if (carryLo) [lo, loOut] = [loOut, lo];
    if (carryHi) [hi, hiOut] = [hiOut, hi];
  }
  return ids;
}

/** 0, 1, ..., n - 1. */
export function identityOrder(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/**
 * Ranks of strings for sorting by text: equal strings share a rank, ranks follow `compare`
 * (default: case-insensitive natural order, then exact code points so the order is total).
 */
export function textRanks(texts: readonly string[], compare: (a: string, b: string) => number = naturalCompare): Uint32Array {
  const order = Array.from(texts.keys()).sort((a, b) => compare(texts[a], texts[b]));
  const ranks = new Uint32Array(texts.length);
  let rank = 0;
  for (let k = 0; k < order.length; k++) {
    if (k > 0 && texts[order[k]] !== texts[order[k - 1]]) rank++;
    ranks[order[k]] = rank;
  }
  return ranks;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** "thread 2" before "thread 10", case folded; ties broken by code points. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
