/**
 * The one mapping between time and horizontal position for a frame. Built once per frame from the
 * store's view and the canvas width, passed to drawing and to hit testing alike: components never
 * convert between nanoseconds and pixels themselves.
 *
 * The hot-path conversions are plain arithmetic equal to d3's `scaleLinear` (which is used for
 * ticks); `d3()` exposes the d3 scale for anything else.
 */
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import type { Nanoseconds } from '../model/types.ts';
import type { CssPx } from './units.ts';

export class TimeScale {
  /** Time at x = 0. */
  readonly startNs: Nanoseconds;
  /** Time at x = widthCss. */
  readonly endNs: Nanoseconds;
  readonly widthCss: CssPx;
  readonly pxPerNs: number;
  private d3Scale: ScaleLinear<number, number> | undefined;

  constructor(startNs: Nanoseconds, endNs: Nanoseconds, widthCss: CssPx) {
    const span = endNs - startNs;
    this.startNs = startNs;
    this.endNs = span > 0 ? endNs : startNs + 1;
    this.widthCss = Math.max(1, widthCss);
    this.pxPerNs = this.widthCss / (this.endNs - this.startNs);
  }

  get nsPerPx(): number {
    return 1 / this.pxPerNs;
  }

  /** X of a time on the same axis. */
  toX(tNs: Nanoseconds): CssPx {
    return (tNs - this.startNs) * this.pxPerNs;
  }

  /** Time at an x. */
  toNs(xCss: CssPx): Nanoseconds {
    return this.startNs + xCss / this.pxPerNs;
  }

  /**
   * The same mapping for a capture whose time zero sits at `offsetNs` on the shared axis: it takes
   * the capture's own (model) times and gives the same x as `toX(t + offsetNs)`.
   */
  forCapture(offsetNs: Nanoseconds): TimeScale {
    if (offsetNs === 0) return this;
    return new TimeScale(this.startNs - offsetNs, this.endNs - offsetNs, this.widthCss);
  }

  /** Nice tick values (1, 2, 5 x 10^k ns) inside the visible window. */
  ticks(count: number): number[] {
    return this.d3().ticks(Math.max(1, count));
  }

  d3(): ScaleLinear<number, number> {
    this.d3Scale ??= scaleLinear().domain([this.startNs, this.endNs]).range([0, this.widthCss]);
    return this.d3Scale;
  }
}
