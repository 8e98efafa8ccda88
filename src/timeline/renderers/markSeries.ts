/**
 * Marks (instant events) drawn as diamonds, merged per pixel column like ranges: from a drawn
 * mark, a galloping search skips to the first mark in the next column. A mark gets its name
 * beside it when the next drawn mark leaves room.
 */
import { lowerBound, upperBound } from '../../model/query.ts';
import type { Model, Track } from '../../model/types.ts';
import type { CaptureFilter } from '../../analysis/eventFilters.ts';
import type { StylePaint } from '../styleColors.ts';
import { gallopLowerBound } from '../search.ts';
import type { TextMeasurer } from '../text.ts';
import type { TimeScale } from '../timeScale.ts';
import { snapCss, type CssPx } from '../units.ts';
import type { LabelBatch } from './labels.ts';
import type { ShapeBatch } from './shapeBatch.ts';

/**
 * Marks of a row as a sorted time column: [lo, hi) of `timeNs`, with `markAt(k)` giving the
 * MarkIndex of entry k.
 */
export interface MarkSeries {
  timeNs: ArrayLike<number>;
  lo: number;
  hi: number;
  markAt(k: number): number;
}

const refTimesCache = new WeakMap<Model, Map<number, Float64Array>>();

/** The marks of a thread marks row, or the marks a category row shows by reference. */
export function markSeriesOf(model: Model, trackIndex: number): MarkSeries {
  const track: Track = model.tracks[trackIndex];
  if (track.markEnd > track.markBegin) {
    return { timeNs: model.marks.timeNs, lo: track.markBegin, hi: track.markEnd, markAt: (k) => k };
  }
  // Category rows list marks by reference; their times are gathered once into a column.
  let perModel = refTimesCache.get(model);
  if (!perModel) refTimesCache.set(model, (perModel = new Map()));
  let times = perModel.get(trackIndex);
  const begin = track.markRefBegin;
  if (!times) {
    times = new Float64Array(track.markRefEnd - begin);
    for (let k = 0; k < times.length; k++) times[k] = model.marks.timeNs[model.markRefs[begin + k]];
    perModel.set(trackIndex, times);
  }
  return { timeNs: times, lo: 0, hi: times.length, markAt: (k) => model.markRefs[begin + k] };
}

/** Which positions of a series the event filters show. */
export interface SeriesShown {
  shown(k: number): boolean;
  /** First shown position in [k, hi), or hi. */
  next(k: number, hi: number): number;
  /** Last shown position in [lo, j), or lo - 1. */
  last(lo: number, j: number): number;
}

/** The filter of a row's mark series (positions are mark indices, or offsets into its markRefs), or null. */
export function seriesShown(model: Model, trackIndex: number, filter: CaptureFilter | null | undefined): SeriesShown | null {
  if (!filter) return null;
  const track = model.tracks[trackIndex];
  if (track.markEnd > track.markBegin) return filter.marks;
  const refs = filter.markRefs;
  const off = track.markRefBegin;
  return {
    shown: (k) => refs.shown(k + off),
    next: (k, hi) => refs.next(k + off, hi + off) - off,
    last: (lo, j) => refs.last(lo + off, j + off) - off,
  };
}

export interface MarkPainter {
  model: Model;
  scale: TimeScale;
  dpr: number;
  paint: StylePaint;
  mixedColor: string;
  labelColor: string;
  text: TextMeasurer;
  shapes: ShapeBatch;
  labels: LabelBatch | null;
}

/** Draws the marks of a series as diamonds of half-size `halfCss` centred at `yMidCss`. */
export function drawMarkSeries(p: MarkPainter, series: MarkSeries, yMidCss: CssPx, halfCss: CssPx, shown: SeriesShown | null = null): void {
  const { scale, model } = p;
  const times = series.timeNs;
  const margin = (halfCss + 1) * scale.nsPerPx;
  let k = lowerBound(times, scale.startNs - margin, series.lo, series.hi);
  const last = upperBound(times, scale.endNs + margin, k, series.hi);
  if (shown !== null) k = shown.next(k, last);
  while (k < last) {
    const x = scale.toX(times[k]);
    let next = gallopLowerBound(times, scale.toNs(Math.floor(x) + 1), k + 1, last);
    const style = model.marks.style[series.markAt(k)];
    const lastHere = shown === null ? next - 1 : shown.last(k, next);
    if (shown !== null) next = shown.next(next, last);
    const mixed = lastHere > k && model.marks.style[series.markAt(lastHere)] !== style;
    p.shapes.diamond(mixed ? p.mixedColor : p.paint.fill[style], snapCss(x, p.dpr), yMidCss, halfCss);
    if (p.labels && !mixed) {
      const room = (next < last ? scale.toX(times[next]) - halfCss : scale.widthCss) - x - halfCss - 8;
      if (room >= 30) {
        const text = p.text.elide(model.strings[model.styles.name[style]], Math.min(room, 240));
        if (text) p.labels.push(x + halfCss + 3, yMidCss + 0.5, text, p.labelColor);
      }
    }
    k = next;
  }
}

/** MarkIndex of the mark nearest to x within the diamond's reach, or -1. */
export function hitMarkSeries(series: MarkSeries, scale: TimeScale, xCss: CssPx, halfCss: CssPx, shown: SeriesShown | null = null): number {
  const times = series.timeNs;
  const t = scale.toNs(xCss);
  const k = lowerBound(times, t, series.lo, series.hi);
  let best = -1;
  let bestPx = halfCss + 1;
  // The nearest marks on either side that the filters show.
  const candidates = shown === null ? [k - 1, k] : [shown.last(series.lo, k), shown.next(k, series.hi)];
  for (const c of candidates) {
    if (c < series.lo || c >= series.hi) continue;
    const d = Math.abs(scale.toX(times[c]) - xCss);
    if (d <= bestPx) {
      best = c;
      bestPx = d;
    }
  }
  return best < 0 ? -1 : series.markAt(best);
}
