/**
 * Level-of-detail summary for counter samples: minimum and maximum over power-of-two blocks,
 * level k holding blocks of 2^k samples. The min/max of any index range is O(log n) away, so a
 * counter draws one vertical min-max segment per pixel column however many samples it covers.
 * Float32 summaries (8 bytes per sample in all) are plenty for drawing; exact values come from the
 * model. NaN samples (no value: the program said the sample was unavailable) are left out of every
 * min and max; a block of NaN only holds [Infinity, -Infinity].
 */
export class MinMaxPyramid {
  /** mins[k][j] = min of samples [j * 2^k, (j + 1) * 2^k); level 0 is the samples themselves. */
  private readonly mins: ArrayLike<number>[];
  private readonly maxs: ArrayLike<number>[];

  constructor(values: ArrayLike<number>) {
    this.mins = [values];
    this.maxs = [values];
    let size = values.length;
    for (let k = 1; size > 1; k++) {
      const prevMin = this.mins[k - 1];
      const prevMax = this.maxs[k - 1];
      const next = Math.ceil(size / 2);
      const min = new Float32Array(next);
      const max = new Float32Array(next);
      for (let j = 0; j < next; j++) {
        const a = 2 * j;
        const b = a + 1 < size ? a + 1 : a;
        // Comparisons, not Math.min/max: a NaN sample must not poison its block.
        const mina = prevMin[a];
        const minb = prevMin[b];
        const maxa = prevMax[a];
        const maxb = prevMax[b];
        min[j] = minb < mina || mina !== mina ? (minb === minb ? minb : Infinity) : mina;
        max[j] = maxb > maxa || maxa !== maxa ? (maxb === maxb ? maxb : -Infinity) : maxa;
      }
      this.mins.push(min);
      this.maxs.push(max);
      size = next;
    }
  }

  /** [min, max] of the samples with a value in [lo, hi); [Infinity, -Infinity] when there is none. */
  query(lo: number, hi: number): [number, number] {
    let min = Infinity;
    let max = -Infinity;
    let a = lo;
    let b = hi;
    for (let k = 0; a < b; k++) {
      const mins = this.mins[k];
      const maxs = this.maxs[k];
      if (a & 1) {
        if (mins[a] < min) min = mins[a];
        if (maxs[a] > max) max = maxs[a];
        a++;
      }
      if (b & 1) {
        b--;
        if (mins[b] < min) min = mins[b];
        if (maxs[b] > max) max = maxs[b];
      }
      a >>= 1;
      b >>= 1;
    }
    return [min, max];
  }
}
