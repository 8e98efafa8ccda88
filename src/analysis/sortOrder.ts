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
 * numeric order. Non-negative integer keys below 2^53 split exactly into (floor(v / 2^32),
 * v mod 2^32), whose high half is small, so the top passes are usually skipped. Anything else goes
 * through the IEEE bits: positive doubles order like their bit patterns, negative ones with all
 * bits flipped.
 */
function splitKeys(order: Uint32Array, keys: SortKeys, descending: boolean): { hi: Uint32Array; lo: Uint32Array } {
  const n = order.length;
  const values = new Float64Array(n);
  if (typeof keys === 'function') for (let k = 0; k < n; k++) values[k] = keys(order[k]);
  else for (let k = 0; k < n; k++) values[k] = keys[order[k]];
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  let integral = true;
  for (let k = 0; k < n; k++) {
    const v = values[k];
    if (!(v >= 0 && v <= Number.MAX_SAFE_INTEGER && Math.floor(v) === v)) {
      integral = false;
      break;
    }
  }
  if (integral) {
    for (let k = 0; k < n; k++) {
      const v = values[k];
      const h = Math.floor(v / TWO_32);
      hi[k] = h;
      lo[k] = v - h * TWO_32;
    }
  } else {
    // -0 sorts with +0; every NaN after +Infinity.
    for (let k = 0; k < n; k++) if (values[k] === 0 || Number.isNaN(values[k])) values[k] = values[k] === 0 ? 0 : NaN;
    const words = new Uint32Array(values.buffer);
    // Little-endian hosts (every browser and Node platform in use) keep the low word first.
    const L = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
    for (let k = 0; k < n; k++) {
      let h = words[2 * k + 1 - L];
      let l = words[2 * k + L];
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
  const { hi, lo } = splitKeys(order, keys, descending);
  if (n < SMALL) {
    // Array.prototype.sort is stable.
    const positions = Array.from({ length: n }, (_, k) => k);
    positions.sort((a, b) => (hi[a] !== hi[b] ? (hi[a] < hi[b] ? -1 : 1) : lo[a] !== lo[b] ? (lo[a] < lo[b] ? -1 : 1) : 0));
    return Uint32Array.from(positions, (k) => order[k]);
  }
  // Positions 0..n-1 are sorted (their keys sit at the same positions), then mapped to row ids.
  let src = new Uint32Array(n);
  for (let k = 0; k < n; k++) src[k] = k;
  let dst = new Uint32Array(n);
  const count = new Uint32Array(RADIX);
  for (let pass = 0; pass < 4; pass++) {
    const words = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let k = 0; k < n; k++) count[(words[k] >>> shift) & 0xffff]++;
    // A digit all rows share orders nothing: skip the pass.
    if (count[(words[0] >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const pos = src[k];
      dst[count[(words[pos] >>> shift) & 0xffff]++] = pos;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  for (let k = 0; k < n; k++) src[k] = order[src[k]];
  return src;
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
