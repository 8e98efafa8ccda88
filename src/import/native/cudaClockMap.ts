/**
 * CUPTI time -> capture time by the CUDA_CLOCK pairs (docs/capture-format.md, section 10.4):
 * piecewise linear between the two pairs around a time, on the line through the first (last) two
 * pairs before (after) them, slope 1 with a single pair. CUPTI times are given relative to an
 * origin the caller chose (its first CUPTI time), so they stay exact in a double.
 */

export class CudaClockMap {
  private cupti: number[] = [];
  private ns: number[] = [];
  private offsets: number[] = [];
  private prepared = false;
  /** Pairs dropped because their CUPTI time did not increase (a stepped clock), and the first one's offset. */
  dropped = 0;
  firstDropped = -1;

  /** A pair: CUPTI time `cupti` (relative to the caller's origin) and capture time `ns`, read at file offset `offset`. */
  add(cupti: number, ns: number, offset: number): void {
    this.cupti.push(cupti);
    this.ns.push(ns);
    this.offsets.push(offset);
    this.prepared = false;
  }

  get pairs(): number {
    return this.cupti.length;
  }

  /**
   * Orders the pairs by capture time (the order they were read in) and drops each one whose CUPTI
   * time is not above its predecessor's: CUPTI's clock never goes back, so such a pair is bad.
   */
  private prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    const order = this.ns.map((_, i) => i).sort((a, b) => this.ns[a] - this.ns[b] || this.cupti[a] - this.cupti[b]);
    const cupti: number[] = [];
    const ns: number[] = [];
    for (const i of order) {
      if (cupti.length > 0 && !(this.cupti[i] > cupti[cupti.length - 1] && this.ns[i] >= ns[ns.length - 1])) {
        if (this.dropped++ === 0 || this.offsets[i] < this.firstDropped) this.firstDropped = this.offsets[i];
        continue;
      }
      cupti.push(this.cupti[i]);
      ns.push(this.ns[i]);
    }
    this.cupti = cupti;
    this.ns = ns;
  }

  /** The capture time of CUPTI time `t`, or NaN without any pair. */
  toNs(t: number): number {
    this.prepare();
    const c = this.cupti;
    const n = c.length;
    if (n === 0) return NaN;
    if (n === 1) return Math.round(this.ns[0] + (t - c[0]));
    // The segment [k, k+1] around t (the first or last segment beyond the ends).
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (c[mid] <= t) lo = mid;
      else hi = mid;
    }
    const slope = (this.ns[hi] - this.ns[lo]) / (c[hi] - c[lo]);
    return Math.round(this.ns[lo] + (t - c[lo]) * slope);
  }
}
