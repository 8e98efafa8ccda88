/**
 * The capture's clock (docs/capture-format.md, section 5), shared by the core decoder and the
 * extension records: ticks to ns by the line through the start pair and the pair of the chunk
 * being read, the latest pair for what is placed at the end, and the bounds an event time must
 * keep. A tick before T0 or after the seal of the chunk it was read from cannot come from the
 * collector (a chunk is sealed after its events): it is damage, counted and reported with the
 * offset of the first one, and the event is placed at the nearest end of its chunk's time.
 */
import type { ModelBuilder } from '../../model/builder.ts';

export class CaptureClock {
  t0 = 0n;
  n0 = 0n;
  /** ns per tick from the PROCESS chunk's tick rate (1 for ns clocks). */
  defaultRate = 1;
  /** ns per tick for the chunk being read. */
  rate = 1;
  /** Seal tick (minus T0) of the chunk being read: no event of it is later. */
  sealRel = 0;
  /** Latest and earliest event times placed (ns from N0). */
  lastNs = 0;
  firstNs = Infinity;
  private pairTick = 0n;
  private pairNs = 0n;
  private outOfRange = 0;
  private firstOutOfRange = -1;
  private unplaceable = 0;
  private badPairs = 0;
  private firstBadPair = -1;

  start(t0: bigint, n0: bigint, defaultRate: number): void {
    this.t0 = t0;
    this.n0 = n0;
    this.defaultRate = defaultRate;
    this.rate = defaultRate;
  }

  /**
   * The start pair is lost (a damaged PROCESS chunk). Ticks still count from the real T0, so times
   * keep their differences if each chunk's rate comes from two real pairs: the first pair seen and
   * the chunk's own. Nothing bounds a tick then, and the origin is the first event.
   */
  private startUnknown = false;
  private firstPair: [bigint, bigint] | undefined;

  startWithoutPair(): void {
    this.startUnknown = true;
  }

  /**
   * Without a start pair: true once a pair later than the first one seen gives the tick rate
   * (chunks sealed at the first pair wait for it).
   */
  learnsRate(tick: bigint, ns: bigint): boolean {
    if (!this.firstPair) {
      this.firstPair = [tick, ns];
      return false;
    }
    const [t1, n1] = this.firstPair;
    if (!(tick > t1 && ns > n1)) return false;
    this.defaultRate = Number(ns - n1) / Number(tick - t1);
    return true;
  }

  /**
   * The clock pair a META or EVENTS chunk was sealed with: the rate and bound for its records. A
   * pair that disagrees with the start pair and tick rate (damage) is reported and not used.
   */
  seal(tick: bigint, ns: bigint, offset: number): void {
    if (this.startUnknown) {
      this.firstPair ??= [tick, ns];
      const [t1, n1] = this.firstPair;
      this.rate = tick > t1 && ns >= n1 ? Number(ns - n1) / Number(tick - t1) : this.defaultRate;
      this.sealRel = Infinity;
      return;
    }
    if (!this.plausiblePair(tick, ns)) {
      if (this.badPairs++ === 0) this.firstBadPair = offset;
      this.rate = this.defaultRate;
      this.sealRel = Infinity;
      return;
    }
    this.rate = tick > this.t0 && ns >= this.n0 ? Number(ns - this.n0) / Number(tick - this.t0) : this.defaultRate;
    this.sealRel = Number(tick - this.t0);
    this.seePair(tick, ns);
  }

  /**
   * A (tick, ns) pair read after the start pair: ns elapsed agree with ticks elapsed at the start's
   * tick rate within 5% (the rate is measured over a short interval) plus 10 ms.
   */
  plausiblePair(tick: bigint, ns: bigint): boolean {
    if (this.startUnknown) return false;
    const elapsed = Number(ns - this.n0);
    const expected = Number(tick - this.t0) * this.defaultRate;
    return elapsed >= 0 && Math.abs(elapsed - expected) <= 0.05 * elapsed + 1e7;
  }

  seePair(tick: bigint, ns: bigint): void {
    if (tick > this.pairTick && ns >= this.n0 && this.plausiblePair(tick, ns)) {
      this.pairTick = tick;
      this.pairNs = ns;
    }
  }

  /** ns per tick over the whole capture (start pair to the latest pair). */
  finalRate(): number {
    return this.pairTick > this.t0 ? Number(this.pairNs - this.n0) / Number(this.pairTick - this.t0) : this.defaultRate;
  }

  /**
   * An OPEN chunk (a buffer the process left in the file) keeps no clock pair of its own: the
   * latest pair's rate, unless that pair is too close to the start to beat the rate measured at
   * start (2 ms), and no seal bound.
   */
  openBuffer(): void {
    this.rate = Number(this.pairNs - this.n0) > 2e6 ? this.finalRate() : this.defaultRate;
    this.sealRel = Infinity;
  }

  /** ns from N0 of an absolute tick, at the whole capture's rate (for what is placed at the end). */
  ticksToNs(tick: bigint): number {
    return Number(tick - this.t0) * this.finalRate();
  }

  /** `rel` (a tick minus T0) inside the current chunk's time, else counted and moved to its nearest end. */
  bounded(rel: number, offset: number): number {
    const hi = this.sealRel >= 0 ? this.sealRel : Infinity;
    if (rel >= 0 && rel <= hi) return rel;
    if (this.outOfRange++ === 0) this.firstOutOfRange = offset;
    return rel > hi ? hi : 0;
  }

  /** ns of a tick given relative to T0 in the chunk being read (extension records carry their own). */
  tickNs(rel: number, offset: number): number {
    const t = Math.round(this.bounded(rel, offset) * this.rate);
    this.see(t);
    return t;
  }

  see(t: number): void {
    if (t > this.lastNs) this.lastNs = t;
    if (t < this.firstNs) this.firstNs = t;
  }

  /**
   * Whether a time converted from another time domain can be placed: finite and no further from
   * the capture's span than the span's own length (or 1 s). Others are counted as unplaceable.
   */
  placeable(t: number): boolean {
    const span = Math.max(this.lastNs, Number(this.pairNs - this.n0), 1e9);
    if (Number.isFinite(t) && t >= -span && t <= 2 * span) return true;
    this.unplaceable++;
    return false;
  }

  /** Reports the times that were out of bounds. */
  report(b: ModelBuilder): void {
    if (this.badPairs > 0) {
      b.report(
        'warning',
        `${this.badPairs} chunk clock pair(s) disagree with the capture's start pair and tick rate (damage); their chunks are timed at the start's tick rate`,
        { offset: this.firstBadPair },
      );
    }
    if (this.outOfRange > 0) {
      b.report(
        'warning',
        `${this.outOfRange} event time(s) lie outside the time of the chunk they were read from (before the capture start, or after the chunk was written): damage; each is placed at the nearest end of its chunk's time`,
        { offset: this.firstOutOfRange },
      );
    }
    if (this.unplaceable > 0) {
      b.report('warning', `${this.unplaceable} converted timestamp(s) are not finite or lie far outside the capture; those events and samples are not shown`);
    }
  }
}
