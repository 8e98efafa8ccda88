/**
 * Quantiles without sorting everything.
 *
 * Method: linear interpolation between closest ranks (Hyndman & Fan type 7, the default of NumPy,
 * R and spreadsheet PERCENTILE.INC). For n sorted values x[0..n-1] and p in [0, 1]:
 *   h = (n - 1) p,  q(p) = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
 * So q(0.5) is the median with nsys' definition (mean of the middle two for an even count),
 * q(0) the minimum and q(1) the maximum.
 *
 * `quantilesInPlace` finds the needed order statistics with quickselect (expected O(n) per
 * quantile, each selection narrowing the next), reordering the slice it is given.
 */

/** The order statistics (0-based ranks) that quantile p needs among n values. */
function ranksOf(n: number, p: number): { k: number; frac: number } {
  const h = (n - 1) * Math.min(1, Math.max(0, p));
  const k = Math.floor(h);
  return { k, frac: h - k };
}

/**
 * Rearranges values[lo..hi) so that values[k] holds the value of rank k - lo among them, with
 * everything before it <= and everything after it >=. Floyd-Rivest selection: on large ranges a
 * recursive pass over a small sample brings two pivots close around rank k first, so the main
 * partition touches about n + o(n) elements. Equal values are cheap. If partitions keep failing to
 * shrink the range, the rest is sorted, so the worst case stays O(n log n).
 */
export function selectInPlace(values: Float64Array, lo: number, hi: number, k: number): number {
  selectRange(values, lo, hi - 1, k, 64);
  return values[k];
}

function selectRange(a: Float64Array, left: number, right: number, k: number, budget: number): void {
  while (right > left) {
    if (budget-- === 0) {
      a.subarray(left, right + 1).sort();
      return;
    }
    if (right - left > 600) {
      // Sample-based narrowing (the constants are those of the original algorithm).
      const n = right - left + 1;
      const i = k - left + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (i < n / 2 ? -1 : 1);
      const sampleLeft = Math.max(left, Math.floor(k - (i * s) / n + sd));
      const sampleRight = Math.min(right, Math.floor(k + ((n - i) * s) / n + sd));
      selectRange(a, sampleLeft, sampleRight, k, 64);
    }
    const pivot = a[k];
    let i = left;
    let j = right;
    swap(a, left, k);
    if (a[right] > pivot) swap(a, left, right);
    while (i < j) {
      swap(a, i, j);
      i++;
      j--;
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
    }
    if (a[left] === pivot) swap(a, left, j);
    else {
      j++;
      swap(a, j, right);
    }
    // a[j] is now the pivot at its final rank.
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** Moves the minimum of values[from..hi) to position `from` and returns it. */
function minToFront(values: Float64Array, from: number, hi: number): number {
  let at = from;
  let m = values[from];
  for (let i = from + 1; i < hi; i++) {
    if (values[i] < m) {
      m = values[i];
      at = i;
    }
  }
  swap(values, from, at);
  return m;
}

/**
 * Quantiles of values[lo..hi) (see the module comment for the method). Reorders that slice.
 * `ps` may come in any order; results follow it. Empty slice: NaN for every p.
 */
export function quantilesInPlace(values: Float64Array, lo: number, hi: number, ps: readonly number[]): number[] {
  const n = hi - lo;
  const out = new Array<number>(ps.length).fill(NaN);
  if (n <= 0) return out;
  if (n <= SORT_BELOW) {
    // Small slices: a sort costs less than the selection bookkeeping.
    values.subarray(lo, hi).sort();
    for (let i = 0; i < ps.length; i++) out[i] = percentileSorted(values.subarray(lo, hi), ps[i]);
    return out;
  }
  const order = ascendingOrder(ps);
  // Ranks come in ascending order, so each selection only looks right of the highest rank
  // selected so far (earlier selections stay in place). The last two selections are remembered:
  // a quantile needs ranks k and k + 1, and the next one may start at the same k.
  let r1 = -1;
  let v1 = NaN;
  let r2 = -1;
  let v2 = NaN;
  for (const i of order) {
    const h = (n - 1) * Math.min(1, Math.max(0, ps[i]));
    const k = Math.floor(h);
    const frac = h - k;
    const need = frac === 0 || k + 1 >= n ? 1 : 2;
    for (let j = 0; j < need; j++) {
      const rank = k + j;
      if (rank === r1 || rank === r2) continue;
      // rank > r2 here: the next rank up is the minimum of what lies right of it (one pass).
      const from = lo + r2 + 1;
      const v = lo + rank === from ? minToFront(values, from, hi) : selectInPlace(values, from, hi, lo + rank);
      r1 = r2;
      v1 = v2;
      r2 = rank;
      v2 = v;
    }
    const x = k === r2 ? v2 : v1;
    out[i] = need === 1 ? x : x + frac * (v2 - x);
  }
  return out;
}

/** Slices up to this length are sorted instead of selected. */
const SORT_BELOW = 48;

/** Indices of `ps` by ascending value (insertion sort: a handful of entries). */
function ascendingOrder(ps: readonly number[]): number[] {
  const order: number[] = [];
  for (let i = 0; i < ps.length; i++) {
    let j = order.length;
    while (j > 0 && ps[order[j - 1]] > ps[i]) j--;
    order.splice(j, 0, i);
  }
  return order;
}

/** Quantiles of any numbers, leaving the input untouched. */
export function quantiles(values: ArrayLike<number>, ps: readonly number[]): number[] {
  const copy = Float64Array.from(values);
  return quantilesInPlace(copy, 0, copy.length, ps);
}

/** One quantile of any numbers (p in [0, 1]), leaving the input untouched. */
export function percentile(values: ArrayLike<number>, p: number): number {
  return quantiles(values, [p])[0];
}

/** Quantile p of values already sorted ascending (same method). */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const { k, frac } = ranksOf(n, p);
  const x = sorted[k];
  return frac === 0 || k + 1 >= n ? x : x + frac * (sorted[k + 1] - x);
}

/**
 * Index (in ascending order) of the instance that represents quantile p, for "jump to the P99
 * instance": the nearest rank, ceil(p n) - 1, clamped to [0, n - 1]. -1 when n = 0.
 */
export function nearestRankIndex(n: number, p: number): number {
  if (n <= 0) return -1;
  return Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1));
}

/** At most `max` of values[lo..hi), evenly spaced, as a new array (a sample that keeps capture order). */
export function thinned(values: Float64Array, lo: number, hi: number, max: number): Float64Array {
  const n = hi - lo;
  if (n <= max) return values.slice(lo, hi);
  const out = new Float64Array(max);
  const step = n / max;
  for (let k = 0; k < max; k++) out[k] = values[lo + Math.floor(k * step)];
  return out;
}
