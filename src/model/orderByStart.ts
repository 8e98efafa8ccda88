/**
 * The permutation that orders ranges by start, then by end (longest first for nesting, shortest
 * first for lane packing), then by index, without a comparator sort: starts are integer
 * nanoseconds, so a stable LSD radix sort on start (16-bit digits of start minus the smallest, at
 * most four passes) orders them, and only runs of equal starts are then sorted by end. A million
 * ranges take a few milliseconds where `Array.prototype.sort` with a comparator takes hundreds.
 * Non-integer or huge spans of starts fall back to the comparator sort.
 *
 * Each loop is its own small function: the sort runs once per row at finish, in a fresh worker,
 * and one large function compiled while its first loop runs (on-stack replacement) lacks feedback
 * for the loops after it and falls back to the interpreter there.
 */

const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;

export function orderByStart(start: ArrayLike<number>, end: ArrayLike<number>, longestFirst: boolean): Uint32Array {
  const n = start.length;
  const order = identity(n);
  if (n < 2) return order;
  const endSign = longestFirst ? -1 : 1;
  const { sorted, integral, min, max } = scanStarts(start, end, endSign);
  if (sorted) return order;
  if (!integral || max - min > Number.MAX_SAFE_INTEGER) {
    order.sort((a, b) => start[a] - start[b] || endSign * (end[a] - end[b]) || a - b);
    return order;
  }
  const span = max - min;
  // Start minus the smallest as 32-bit halves, so that a digit is a shift and a mask.
  const lo = new Uint32Array(n);
  const hi = span >= 2 ** 32 ? new Uint32Array(n) : lo;
  splitKeys(start, min, lo, hi);
  let from = order;
  let to: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(DIGITS);
  const passes = span < 2 ** 16 ? 1 : span < 2 ** 32 ? 2 : span < 2 ** 48 ? 3 : 4;
  for (let pass = 0; pass < passes; pass++) {
    const word = pass < 2 ? lo : hi;
    const shift = (pass & 1) * DIGIT_BITS;
    if (!countDigits(word, shift, count)) continue;
    scatter(from, to, word, shift, count);
    const swap = from;
    from = to;
    to = swap;
  }
  orderTies(from, start, end, endSign);
  return from;
}

function identity(n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/** Whether the ranges already are in order, whether every start is an integer, and the starts' range. */
function scanStarts(start: ArrayLike<number>, end: ArrayLike<number>, endSign: number): { sorted: boolean; integral: boolean; min: number; max: number } {
  const n = start.length;
  let sorted = true;
  let integral = true;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = start[i];
    if (s < min) min = s;
    if (s > max) max = s;
    if (!Number.isInteger(s)) integral = false;
    if (i > 0 && sorted) {
      const d = start[i - 1] - s;
      if (d > 0 || (d === 0 && endSign * (end[i - 1] - end[i]) > 0)) sorted = false;
    }
  }
  return { sorted, integral, min, max };
}

/** `start` minus `min` into 32-bit halves (`hi` is `lo` when every key fits 32 bits). */
function splitKeys(start: ArrayLike<number>, min: number, lo: Uint32Array, hi: Uint32Array): void {
  const n = start.length;
  if (hi === lo) {
    for (let i = 0; i < n; i++) lo[i] = start[i] - min;
    return;
  }
  for (let i = 0; i < n; i++) {
    const rel = start[i] - min;
    const h = Math.floor(rel / 2 ** 32);
    hi[i] = h;
    lo[i] = rel - h * 2 ** 32;
  }
}

/**
 * Digit counts of `word` as exclusive prefix sums in `count` (each digit's first place); false
 * when every key has the same digit, which orders nothing.
 */
function countDigits(word: Uint32Array, shift: number, count: Uint32Array): boolean {
  const n = word.length;
  count.fill(0);
  for (let i = 0; i < n; i++) count[(word[i] >>> shift) & (DIGITS - 1)]++;
  if (count[(word[0] >>> shift) & (DIGITS - 1)] === n) return false;
  let acc = 0;
  for (let d = 0; d < DIGITS; d++) {
    const c = count[d];
    count[d] = acc;
    acc += c;
  }
  return true;
}

/** One stable pass: `from` into `to` by the digit of `word` at `shift`. */
function scatter(from: Uint32Array, to: Uint32Array, word: Uint32Array, shift: number, count: Uint32Array): void {
  const n = from.length;
  for (let k = 0; k < n; k++) {
    const i = from[k];
    to[count[(word[i] >>> shift) & (DIGITS - 1)]++] = i;
  }
}

/**
 * Equal starts keep index order (the sort is stable); orders them by end. A pair (nearly every
 * run) is ordered by one comparison, which is what the sort does with two elements.
 */
function orderTies(order: Uint32Array, start: ArrayLike<number>, end: ArrayLike<number>, endSign: number): void {
  const n = order.length;
  for (let k = 0; k < n; ) {
    const s = start[order[k]];
    let j = k + 1;
    while (j < n && start[order[j]] === s) j++;
    if (j - k === 2) {
      const a = order[k];
      const b = order[k + 1];
      if ((endSign * (end[a] - end[b]) || a - b) > 0) {
        order[k] = b;
        order[k + 1] = a;
      }
    } else if (j - k > 2) order.subarray(k, j).sort((a, b) => endSign * (end[a] - end[b]) || a - b);
    k = j;
  }
}
