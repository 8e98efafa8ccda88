/**
 * Counter rows: a step chart (a value holds until the next sample) with its area filled, drawn
 * from one min-max segment per pixel column (`MinMaxPyramid`), so the cost follows pixels.
 */
import { upperBound } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { nameHash, namePalette, rgbToCss } from '../colors.ts';
import { formatValue } from '../../format/numbers.ts';
import { MinMaxPyramid } from '../lod.ts';
import { gallopLowerBound } from '../search.ts';
import type { CssPx } from '../units.ts';
import type { Hit, RowDrawEnv, RowHitEnv, TrackRenderer } from './types.ts';

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

/** Vertical mapping of a counter row: the whole capture's value range, including zero. */
export function counterValueScale(model: Model, trackIndex: number, heightCss: CssPx): { yOf(value: number): CssPx; top: number } {
  const track = model.tracks[trackIndex];
  const [min, max] = pyramidOf(model, trackIndex).query(0, track.counterEnd - track.counterBegin);
  const base = Math.min(0, min);
  const top = Math.max(0, max) === base ? base + 1 : Math.max(0, max);
  const plot = heightCss - PAD_TOP_CSS - PAD_BOTTOM_CSS;
  return { yOf: (v) => PAD_TOP_CSS + (1 - (v - base) / (top - base)) * plot, top };
}

export const counterRowRenderer: TrackRenderer = {
  draw(env: RowDrawEnv): void {
    const { row, ctx, scale } = env;
    const model = row.model;
    const track = model.tracks[row.track];
    const lo = track.counterBegin;
    const hi = track.counterEnd;
    const times = model.counters.timeNs;
    const values = model.counters.value;
    const first = Math.max(lo, upperBound(times, scale.startNs, lo, hi) - 1);
    const last = upperBound(times, scale.endNs, first, hi);
    if (last <= first) return;
    const pyramid = pyramidOf(model, row.track);
    const { yOf, top } = counterValueScale(model, row.track, row.heightCss);
    const palette = namePalette(env.theme.dark);
    const color = rgbToCss(palette[nameHash(track.label) % palette.length]);

    const xStart = Math.max(scale.toX(times[first]), -1);
    let v = values[first];
    ctx.beginPath();
    ctx.moveTo(xStart, yOf(v));
    for (let k = first; k < last; ) {
      const x = Math.max(scale.toX(times[k]), -1);
      const next = gallopLowerBound(times, scale.toNs(Math.floor(x) + 1), k + 1, last);
      ctx.lineTo(x, yOf(v));
      if (next - k > 1) {
        const [min, max] = pyramid.query(k - lo, next - lo);
        ctx.lineTo(x, yOf(max));
        ctx.lineTo(x, yOf(min));
      }
      v = values[next - 1];
      ctx.lineTo(x, yOf(v));
      k = next;
    }
    // The last value holds to the end of the capture.
    const xEnd = Math.min(scale.toX(Math.max(model.durationNs, times[last - 1])), scale.widthCss + 1);
    ctx.lineTo(xEnd, yOf(v));
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.stroke();
    const yBase = yOf(0);
    ctx.lineTo(xEnd, yBase);
    ctx.lineTo(xStart, yBase);
    ctx.closePath();
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = color;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.fillStyle = env.theme.fgMuted;
    ctx.fillText(formatValue(top, track.unit), 4, PAD_TOP_CSS + 1);
  },

  hitTest(xCss: CssPx, _yCss: CssPx, env: RowHitEnv): Hit | null {
    const model = env.row.model;
    const track = model.tracks[env.row.track];
    const t = env.scale.toNs(xCss);
    const k = upperBound(model.counters.timeNs, t, track.counterBegin, track.counterEnd) - 1;
    if (k < track.counterBegin || t > Math.max(model.durationNs, model.counters.timeNs[track.counterEnd - 1])) return null;
    return { kind: 'counter', row: env.row, sample: k, tNs: t };
  },
};
