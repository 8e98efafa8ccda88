/**
 * Counter rows: a step chart (a value holds until the next sample) with its area filled, drawn
 * from one min-max segment per pixel column (`MinMaxPyramid`), so the cost follows pixels. The
 * track's counter semantics (`Track.counter`, NVTX counters) choose the drawing: a step back to the
 * previous sample ('sinceLast'), straight lines ('linear') or the samples alone ('point'); limits
 * widen the value scale and are drawn as dashed lines. Samples without a value (NaN: the program
 * said the value was unavailable) leave the time they cover empty.
 */
import { upperBound } from '../../model/query.ts';
import type { Model, Track } from '../../model/types.ts';
import { nameHash, namePalette, rgbToCss } from '../styleColors.ts';
import { formatValue } from '../../format/numbers.ts';
import { MinMaxPyramid } from '../minMaxPyramid.ts';
import { gallopLowerBound } from '../search.ts';
import type { Canvas2D } from '../canvas2d.ts';
import type { CssPx } from '../units.ts';
import type { Hit, RowDrawEnv, RowHitEnv, TrackRenderer } from './trackRenderer.ts';

const PAD_TOP_CSS: CssPx = 6;
const PAD_BOTTOM_CSS: CssPx = 3;

const pyramids = new WeakMap<Model, Map<number, MinMaxPyramid>>();

function pyramidOf(model: Model, trackIndex: number): MinMaxPyramid {
  let perModel = pyramids.get(model);
  if (!perModel) pyramids.set(model, (perModel = new Map()));
  let pyramid = perModel.get(trackIndex);
  if (!pyramid) {
    const track = model.tracks[trackIndex];
    pyramid = new MinMaxPyramid(model.counters.value.subarray(track.counterBegin, track.counterEnd));
    perModel.set(trackIndex, pyramid);
  }
  return pyramid;
}

/** Vertical mapping of a counter row: the whole capture's value range, including zero and the track's limits. */
export function counterValueScale(model: Model, trackIndex: number, heightCss: CssPx): { yOf(value: number): CssPx; top: number } {
  const track = model.tracks[trackIndex];
  const [min, max] = pyramidOf(model, trackIndex).query(0, track.counterEnd - track.counterBegin);
  const base = Math.min(0, min, track.counter?.min ?? 0);
  const high = Math.max(0, max, track.counter?.max ?? 0);
  const top = high === base ? base + 1 : high;
  const plot = heightCss - PAD_TOP_CSS - PAD_BOTTOM_CSS;
  return { yOf: (v) => PAD_TOP_CSS + (1 - (v - base) / (top - base)) * plot, top };
}

export const counterRowRenderer: TrackRenderer = {
  draw(env: RowDrawEnv): void {
    const { row, ctx } = env;
    const track = row.model.tracks[row.track];
    const { yOf, top } = counterValueScale(row.model, row.track, row.heightCss);
    drawLimits(env, track, yOf);
    if (!drawSeries(env, row.track, yOf, seriesColor(env, track))) return;
    ctx.fillStyle = env.theme.fgMuted;
    ctx.fillText(formatValue(top, track.unit), 4, PAD_TOP_CSS + 1);
  },

  hitTest(xCss: CssPx, _yCss: CssPx, env: RowHitEnv): Hit | null {
    const model = env.row.model;
    const track = model.tracks[env.row.track];
    const t = env.scale.toNs(xCss);
    const times = model.counters.timeNs;
    const lo = track.counterBegin;
    const hi = track.counterEnd;
    const k = upperBound(times, t, lo, hi) - 1;
    switch (track.counter?.interpolation) {
      case 'sinceLast':
        // The sample that ends the step under the pointer.
        if (k + 1 >= hi && (k < lo || times[k] !== t)) return null;
        return { kind: 'counter', row: env.row, sample: k >= lo && times[k] === t ? k : k + 1, tNs: t };
      case 'linear':
        if (k < lo || k + 1 >= hi) return k >= lo && times[k] === t ? { kind: 'counter', row: env.row, sample: k, tNs: t } : null;
        return { kind: 'counter', row: env.row, sample: t - times[k] <= times[k + 1] - t ? k : k + 1, tNs: t };
      case 'point': {
        // The nearest sample within a few pixels.
        const tolerance = env.scale.toNs(xCss + 4) - t;
        let best = -1;
        for (const c of [k, k + 1]) {
          if (c >= lo && c < hi && !Number.isNaN(model.counters.value[c]) && Math.abs(times[c] - t) <= tolerance && (best < 0 || Math.abs(times[c] - t) < Math.abs(times[best] - t))) best = c;
        }
        return best < 0 ? null : { kind: 'counter', row: env.row, sample: best, tNs: t };
      }
      default:
        if (k < lo || t > Math.max(model.durationNs, times[hi - 1])) return null;
        return { kind: 'counter', row: env.row, sample: k, tNs: t };
    }
  },
};

function seriesColor(env: RowDrawEnv, track: Track): string {
  const palette = namePalette(env.theme.dark);
  return rgbToCss(palette[nameHash(track.label) % palette.length]);
}

/**
 * Draws the samples of counter track `trackIndex` in view with `yOf` (row-local y of a value), by
 * its interpolation; false when none is in view.
 */
function drawSeries(env: RowDrawEnv, trackIndex: number, yOf: (v: number) => number, color: string): boolean {
  const { ctx, scale } = env;
  const model = env.row.model;
  const track = model.tracks[trackIndex];
  const lo = track.counterBegin;
  const hi = track.counterEnd;
  const times = model.counters.timeNs;
  const values = model.counters.value;
  const first = Math.max(lo, upperBound(times, scale.startNs, lo, hi) - 1);
  const last = upperBound(times, scale.endNs, first, hi);
  if (last <= first) return false;
  const pyramid = pyramidOf(model, trackIndex);
  const interpolation = track.counter?.interpolation;
  if (interpolation === 'linear' || interpolation === 'sinceLast' || interpolation === 'point') {
    // These need the sample after the view too (a line or step reaches back from it).
    drawMode(env, trackIndex, interpolation, pyramid, first, Math.min(last + 1, hi), yOf, color);
    return true;
  }
  const path = gapPath.reset();
  const xStart = Math.max(scale.toX(times[first]), -1);
  let v = values[first];
  path.to(xStart, yOf(v));
  for (let k = first; k < last; ) {
    const x = Math.max(scale.toX(times[k]), -1);
    const next = gallopLowerBound(times, scale.toNs(Math.floor(x) + 1), k + 1, last);
    path.to(x, yOf(v));
    if (next - k > 1) columnSpan(path, pyramid, k - lo, next - lo, x, yOf);
    v = values[next - 1];
    path.to(x, yOf(v));
    k = next;
  }
  // The last value holds to the end of the capture.
  const xEnd = Math.min(scale.toX(Math.max(model.durationNs, times[last - 1])), scale.widthCss + 1);
  path.to(xEnd, yOf(v));
  path.draw(ctx, color, yOf(0));
  return true;
}

/**
 * A collapsed group of counter rows (the counters of a counter group, or of a scope) drawn as one
 * track: every counter on one value scale (zero and the counters' limits included) in the strip
 * [yTop, yTop + heightCss), each in its own color. Only counters with the same unit share a scale
 * meaningfully; those with another unit than the first are left to their own rows.
 */
export function drawCounterGroup(env: RowDrawEnv, tracks: readonly number[], yTop: CssPx, heightCss: CssPx): void {
  const model = env.row.model;
  const counters = tracks.filter((t) => model.tracks[t].kind === 'counter' && model.tracks[t].counterEnd > model.tracks[t].counterBegin);
  if (counters.length === 0) return;
  const unit = model.tracks[counters[0]].unit;
  const shared = counters.filter((t) => model.tracks[t].unit === unit);
  let base = 0;
  let high = 0;
  for (const t of shared) {
    const track = model.tracks[t];
    const [min, max] = pyramidOf(model, t).query(0, track.counterEnd - track.counterBegin);
    base = Math.min(base, min, track.counter?.min ?? 0);
    high = Math.max(high, max, track.counter?.max ?? 0);
  }
  const top = high === base ? base + 1 : high;
  const yOf = (v: number) => yTop + (1 - (v - base) / (top - base)) * heightCss;
  for (const t of shared) drawSeries(env, t, yOf, seriesColor(env, model.tracks[t]));
}

/** The value a counter shows at `tNs` (interpolated on linear rows), given the sample a hit found. */
export function counterValueAt(model: Model, track: Track, sample: number, tNs: number): number {
  const times = model.counters.timeNs;
  const values = model.counters.value;
  if (track.counter?.interpolation !== 'linear') return values[sample];
  const a = times[sample] <= tNs ? sample : sample - 1;
  const b = a + 1;
  if (a < track.counterBegin || b >= track.counterEnd || times[b] === times[a]) return values[sample];
  return values[a] + ((values[b] - values[a]) * (tNs - times[a])) / (times[b] - times[a]);
}

/** Dashed lines at the counter's limits (NVTX counter semantics: applied "softly"). */
function drawLimits(env: RowDrawEnv, track: Track, yOf: (v: number) => number): void {
  const limits = [track.counter?.min, track.counter?.max].filter((v): v is number => v !== undefined);
  if (limits.length === 0) return;
  const { ctx, scale } = env;
  ctx.save();
  ctx.strokeStyle = env.theme.fgMuted;
  ctx.globalAlpha = 0.6;
  ctx.setLineDash([3, 3]);
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const v of limits) {
    const y = Math.round(yOf(v)) + 0.5;
    ctx.moveTo(0, y);
    ctx.lineTo(scale.widthCss, y);
  }
  ctx.stroke();
  ctx.restore();
}

/**
 * Linear, since-last and point drawings over samples [first, last), one min-max segment per pixel
 * column as for steps.
 */
function drawMode(
  env: RowDrawEnv,
  trackIndex: number,
  mode: 'linear' | 'sinceLast' | 'point',
  pyramid: MinMaxPyramid,
  first: number,
  last: number,
  yOf: (v: number) => number,
  color: string,
): void {
  const { row, ctx, scale } = env;
  const model = row.model;
  const lo = model.tracks[trackIndex].counterBegin;
  const times = model.counters.timeNs;
  const values = model.counters.value;
  const xOf = (k: number) => Math.min(Math.max(scale.toX(times[k]), -1), scale.widthCss + 1);
  if (mode === 'point') {
    ctx.fillStyle = color;
    for (let k = first; k < last; ) {
      const x = xOf(k);
      const next = gallopLowerBound(times, scale.toNs(Math.floor(x) + 1), k + 1, last);
      const [min, max] = next - k > 1 ? pyramid.query(k - lo, next - lo) : [values[k], values[k]];
      // A column of samples without a value draws nothing.
      if (min <= max) ctx.fillRect(Math.round(x) - 1, yOf(max) - 1, 3, yOf(min) - yOf(max) + 3);
      k = next;
    }
    return;
  }
  const path = gapPath.reset();
  // Since-last: a sample's value holds back to the previous sample, so the first one only marks a start.
  path.to(xOf(first), yOf(mode === 'linear' ? values[first] : values[Math.min(first + 1, last - 1)]));
  for (let k = first; k < last; ) {
    const x = xOf(k);
    const next = gallopLowerBound(times, scale.toNs(Math.floor(x) + 1), k + 1, last);
    if (mode === 'linear') {
      // A sample without a value breaks the line on both sides of it.
      path.to(x, yOf(values[k]));
      if (next - k > 1) columnSpan(path, pyramid, k - lo, next - lo, x, yOf);
      path.to(x, yOf(values[next - 1]));
    } else {
      // The step reaching x ends at sample k: its value is v[k]; then the next value starts.
      path.to(x, yOf(values[k]));
      if (next - k > 1) columnSpan(path, pyramid, k - lo, next - lo, x, yOf);
      if (next < last) path.to(x, yOf(values[next]));
    }
    k = next;
  }
  path.draw(ctx, color, yOf(0));
}

/** The vertical min-max segment of the samples [a, b) (pyramid indices) of one pixel column, if any has a value. */
function columnSpan(path: GapPath, pyramid: MinMaxPyramid, a: number, b: number, x: number, yOf: (v: number) => number): void {
  const [min, max] = pyramid.query(a, b);
  if (min > max) return;
  path.to(x, yOf(max));
  path.to(x, yOf(min));
}

/**
 * A polyline that breaks where the value is NaN (a sample without a value): each unbroken run is
 * stroked, and filled down to the zero line on its own, so the time without a value stays empty.
 * Gaps narrower than a pixel column are bridged by that column's min-max segment. One instance is
 * reused by every row (drawing is synchronous).
 */
class GapPath {
  private xs = new Float64Array(1024);
  private ys = new Float64Array(1024);
  private n = 0;
  /** Start index of each run, in order. */
  private runs: number[] = [];
  private broken = true;

  reset(): this {
    this.n = 0;
    this.runs.length = 0;
    this.broken = true;
    return this;
  }

  /** Extends the current run to (x, y), starts a new run after a break, or breaks when y is NaN. */
  to(x: number, y: number): void {
    if (y !== y) {
      this.broken = true;
      return;
    }
    if (this.n === this.xs.length) {
      const xs = new Float64Array(this.n * 2);
      const ys = new Float64Array(this.n * 2);
      xs.set(this.xs);
      ys.set(this.ys);
      this.xs = xs;
      this.ys = ys;
    }
    if (this.broken) {
      this.runs.push(this.n);
      this.broken = false;
    }
    this.xs[this.n] = x;
    this.ys[this.n] = y;
    this.n++;
  }

  draw(ctx: Canvas2D, color: string, yBase: number): void {
    if (this.n === 0) return;
    const { runs } = this;
    ctx.beginPath();
    for (let r = 0; r < runs.length; r++) this.trace(ctx, r);
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.stroke();
    if (runs.length === 1) {
      // No gap: the stroked path itself is closed down to the zero line and filled.
      this.closeDown(ctx, 0, yBase);
    } else {
      ctx.beginPath();
      for (let r = 0; r < runs.length; r++) {
        this.trace(ctx, r);
        this.closeDown(ctx, r, yBase);
      }
    }
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = color;
    ctx.fill();
    ctx.globalAlpha = 1;
  }

  private end(r: number): number {
    return r + 1 < this.runs.length ? this.runs[r + 1] : this.n;
  }

  private trace(ctx: Canvas2D, r: number): void {
    const { xs, ys } = this;
    const end = this.end(r);
    ctx.moveTo(xs[this.runs[r]], ys[this.runs[r]]);
    for (let i = this.runs[r] + 1; i < end; i++) ctx.lineTo(xs[i], ys[i]);
  }

  private closeDown(ctx: Canvas2D, r: number, yBase: number): void {
    ctx.lineTo(this.xs[this.end(r) - 1], yBase);
    ctx.lineTo(this.xs[this.runs[r]], yBase);
    ctx.closePath();
  }
}

const gapPath = new GapPath();
