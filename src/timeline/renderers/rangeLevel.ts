/**
 * Drawing and hit testing one level of a stacked or lane row. Ranges of a level do not overlap and
 * are sorted by start, so the visible ones are two binary searches away (`levelWindow`), and the
 * ranges narrower than a pixel are merged per pixel column: from a sub-pixel range, one galloping
 * search skips to the first range starting in the next column. The cost of a level is
 * O(visible pixel columns x log n), whatever the number of ranges in view.
 */
import { lowerBound, upperBound } from '../../model/query.ts';
import { subPixelRunEnd } from '../../model/lod.ts';
import { RangeFlag, type Model } from '../../model/types.ts';
import type { ShownIndex } from '../../analysis/eventFilters.ts';
import type { StylePaint } from '../styleColors.ts';
import { gallopLowerBound } from '../search.ts';
import type { TextMeasurer } from '../text.ts';
import type { TimeScale } from '../timeScale.ts';
import { snapCss, type CssPx } from '../units.ts';
import type { LabelBatch } from './labels.ts';
import type { ShapeBatch } from './shapeBatch.ts';

/** Ranges narrower than this are merged into per-pixel-column blocks. */
export const MERGE_BELOW_CSS: CssPx = 1;
/** Boxes at least this wide get a label. */
export const LABEL_MIN_CSS: CssPx = 24;
export const LABEL_PAD_CSS: CssPx = 4;
/** A click this close to a range (in CSS px) still hits it: merged blocks cover whole pixel columns. */
export const HIT_SLOP_CSS: CssPx = 1;
/** Depth of the torn right edge of unterminated ranges. */
export const TEAR_CSS: CssPx = 4;

export interface LevelPainter {
  model: Model;
  scale: TimeScale;
  dpr: number;
  paint: StylePaint;
  /** Color of merged blocks holding ranges of different styles. */
  mixedColor: string;
  text: TextMeasurer;
  /** Where boxes go (drawn by color when the row is done). */
  shapes: ShapeBatch;
  /** Where labels go; null draws no labels (summaries, folded levels). */
  labels: LabelBatch | null;
  /** The ranges the event filters show (null: all): hidden ones are neither drawn nor merged. */
  shown?: ShownIndex | null;
}

/** Draws ranges [lo, hi) of one level (sorted, non-overlapping) as boxes of height hCss at yCss. */
export function drawLevel(p: LevelPainter, lo: number, hi: number, yCss: CssPx, hCss: CssPx): void {
  const { scale, model } = p;
  const { startNs, endNs, style } = model.ranges;
  const shown = p.shown ?? null;
  let i = lowerBound(endNs, scale.startNs, lo, hi);
  const last = upperBound(startNs, scale.endNs, i, hi);
  while (i < last) {
    if (shown !== null && !shown.shown(i)) {
      i = shown.next(i, last);
      continue;
    }
    const xs = scale.toX(startNs[i]);
    const xe = scale.toX(endNs[i]);
    if (xe - xs >= MERGE_BELOW_CSS) {
      drawBox(p, i, xs, xe, yCss, hCss);
      i++;
      continue;
    }
    // A run of adjacent pixel columns, each holding the start of at least one sub-pixel range.
    const runStart = Math.floor(xs);
    let col = runStart;
    const runStyle = style[i];
    let mixed = false;
    i++;
    const lod = model.rangeLod !== undefined && model.rangeLod.startNs === startNs && shown === null ? model.rangeLod : null;
    const out = { mixed: false };
    for (;;) {
      if (lod !== null && i < last && startNs[i] - startNs[i - 1] < scale.nsPerPx) {
        // Range i joins the run; so do the sub-pixel ranges after it that fill adjacent columns,
        // found block by block from the summaries.
        const to = subPixelRunEnd(lod, model.ranges, i, last, scale.nsPerPx, runStyle, out);
        if (to > i + 1) {
          i = to;
          col = Math.floor(scale.toX(startNs[to - 1]));
          if (out.mixed) mixed = true;
        }
      }
      const j = gallopLowerBound(startNs, scale.toNs(col + 1), i, last);
      // Ranges i..j-1 start in this column; all but the last (shown) one end before the next starts.
      const k = j <= i ? -1 : shown === null ? j - 1 : shown.last(i, j);
      if (k >= i) {
        if (style[k] !== runStyle) mixed = true;
        if (scale.toX(endNs[k]) - scale.toX(startNs[k]) >= MERGE_BELOW_CSS) {
          // It reaches past the column: the run stops here and k is drawn as its own box next.
          i = k;
          break;
        }
      }
      i = shown === null ? j : shown.next(j, last);
      if (i >= last) break;
      const xn = scale.toX(startNs[i]);
      if (xn >= col + 2 || scale.toX(endNs[i]) - xn >= MERGE_BELOW_CSS) break;
      if (style[i] !== runStyle) mixed = true;
      col++;
      i++;
    }
    const x0 = snapCss(runStart, p.dpr);
    p.shapes.rect(mixed ? p.mixedColor : p.paint.fill[runStyle], x0, yCss, Math.max(1 / p.dpr, snapCss(col + 1, p.dpr) - x0), hCss);
  }
}

function drawBox(p: LevelPainter, i: number, xs: CssPx, xe: CssPx, yCss: CssPx, hCss: CssPx): void {
  const { model, dpr } = p;
  const widthCss = p.scale.widthCss;
  const x0 = snapCss(Math.max(xs, -2), dpr);
  let w = Math.max(1 / dpr, snapCss(Math.min(xe, widthCss + 2), dpr) - x0);
  // A device pixel of gap keeps neighbouring boxes of one color apart.
  if (w >= 3) w -= 1 / dpr;
  const style = model.ranges.style[i];
  p.shapes.rect(p.paint.fill[style], x0, yCss, w, hCss);
  // Torn right edge: the range was still open when the capture ended.
  if (model.ranges.flags[i] & RangeFlag.Unterminated && xe <= widthCss + 2 && w > 3 * TEAR_CSS) p.shapes.tear(x0 + w, yCss, hCss);

  if (p.labels && w >= LABEL_MIN_CSS) {
    const visible0 = Math.max(x0, 0);
    const visible1 = Math.min(x0 + w, widthCss);
    const room = visible1 - visible0 - 2 * LABEL_PAD_CSS;
    if (room >= LABEL_MIN_CSS - 2 * LABEL_PAD_CSS) {
      const text = p.text.elide(model.strings[model.styles.name[style]], room);
      if (text) p.labels.push(visible0 + LABEL_PAD_CSS, yCss + hCss / 2 + 0.5, text, p.paint.text[style]);
    }
  }
}

/**
 * The range of a level under x: the one containing the time at x, else the nearest within
 * HIT_SLOP_CSS (which covers merged blocks and the gaps between boxes); -1 if none.
 */
export function hitLevel(model: Model, lo: number, hi: number, scale: TimeScale, xCss: CssPx, shown: ShownIndex | null = null): number {
  const { startNs, endNs } = model.ranges;
  const t = scale.toNs(xCss);
  let k = upperBound(startNs, t, lo, hi) - 1;
  // Ranges the filters hide are not there to hit.
  if (shown !== null) k = shown.last(lo, k + 1);
  if (k >= lo && endNs[k] >= t) return k;
  let best = -1;
  let bestPx = HIT_SLOP_CSS;
  if (k >= lo) {
    const d = xCss - scale.toX(endNs[k]);
    if (d <= bestPx) {
      best = k;
      bestPx = d;
    }
  }
  const after = shown === null ? k + 1 : shown.next(k + 1, hi);
  if (after < hi && scale.toX(startNs[after]) - xCss < bestPx) best = after;
  return best;
}
