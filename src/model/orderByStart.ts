/**
 * The permutation that orders ranges by start, then by end (longest first for nesting, shortest
 * first for lane packing), then by index, without a comparator sort: starts are integer
 * nanoseconds, so a stable LSD radix sort on start (16-bit digits of start minus the smallest, at
 * most four passes) orders them, and only runs of equal starts are then sorted by end. A million
 * ranges take a few milliseconds where `Array.prototype.sort` with a comparator takes hundreds.
 * Non-integer or huge spans of starts fall back to the comparator sort.
 *
 * Before the radix passes, one bucket pass is tried (`bucketOrder`): ranges by start into about n
 * buckets, then an insertion sort that fixes the order inside buckets. On starts spread over their
 * span, as a capture's are, that is one pass instead of two to four; where starts crowd into few
 * buckets, the insertion sort gives up after a bounded number of moves and the radix sort runs.
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
  const bucketed = bucketOrder(start, min, span);
  if (bucketed !== undefined) {
    orderTies(bucketed, start, end, endSign);
    return bucketed;
  }
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

/** Moves per range that the insertion sort after the bucket pass may make before the radix sort takes over. */
const MOVES_PER_RANGE = 8;

/**
 * The permutation ordering integer starts (ties in index order, as the stable radix sort), from one
 * pass into about n buckets by start and an insertion sort of the result; undefined when the
 * insertion sort needs more than MOVES_PER_RANGE moves per range (starts crowded into few
 * buckets). A bucket holds ranges in index order, and the buckets follow the starts, so only ranges
 * of one bucket are out of order, and an insertion sort that moves a range only past greater
 * starts keeps equal starts in index order.
 */
export function bucketOrder(start: ArrayLike<number>, min: number, span: number): Uint32Array | undefined {
  const n = start.length;
  let buckets = 1;
  while (buckets * 2 <= n) buckets *= 2;
  const scale = buckets / (span + 1);
  const budget = MOVES_PER_RANGE * n;
  const bucket = new Uint32Array(n);
  const first = new Uint32Array(buckets + 1);
  bucketsOf(start, min, scale, buckets, bucket, first);
  const order = new Uint32Array(n);
  placeByBucket(bucket, first, order);
  return insertionSort(order, start, budget) ? order : undefined;
}

/**
 * Each range's index at its bucket's next place. A loop of its own: written inside `bucketOrder`, it
 * was compiled on the stack (OSR) before the code after it had run, and `bucketOrder` was then
 * deoptimised for want of type feedback on every call (`--trace-deopt`: 6-11 times per load).
 */
function placeByBucket(bucket: Uint32Array, first: Uint32Array, order: Uint32Array): void {
  const n = bucket.length;
  for (let i = 0; i < n; i++) order[first[bucket[i]]++] = i;
}

/** Each range's bucket, and the buckets' first places (exclusive prefix sums of their sizes) in `first`. */
function bucketsOf(start: ArrayLike<number>, min: number, scale: number, buckets: number, bucket: Uint32Array, first: Uint32Array): void {
  const n = start.length;
  for (let i = 0; i < n; i++) {
    const b = Math.min(Math.floor((start[i] - min) * scale), buckets - 1);
    bucket[i] = b;
    first[b + 1]++;
  }
  for (let b = 1; b <= buckets; b++) first[b] += first[b - 1];
}

/** Sorts `order` by start, stable; false (order left part sorted) once more than `budget` moves were needed. */
function insertionSort(order: Uint32Array, start: ArrayLike<number>, budget: number): boolean {
  const n = order.length;
  let moves = 0;
  for (let k = 1; k < n; k++) {
    const x = order[k];
    const s = start[x];
    let j = k - 1;
    if (!(start[order[j]] > s)) continue;
    do {
      order[j + 1] = order[j];
      j--;
    } while (j >= 0 && start[order[j]] > s);
    order[j + 1] = x;
    moves += k - 1 - j;
    if (moves > budget) return false;
  }
  return true;
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
