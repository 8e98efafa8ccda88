/**
 * One frame of the timeline: what it shows (layout, scale, vertical scroll, theme, size) and the
 * static drawing of it: ruler, grid and the visible rows, each by its track renderer. Hit testing
 * and locating a range's box read the same frame, so they agree with what was drawn.
 */
import { trackOfMark, trackOfRange } from '../model/query.ts';
import type { Canvas2D } from './canvas2d.ts';
import { stylePaint } from './styleColors.ts';
import { searchPaint } from './searchPaint.ts';
import { rendererFor } from './renderers/index.ts';
import { MARK_HALF_CSS } from './renderers/marksRow.ts';
import { rangeBoxInRow, STRIP_MARK_HALF_CSS } from './renderers/rangeRow.ts';
import type { RectStrips } from './renderers/rectStrips.ts';
import type { BoxCss, Hit } from './renderers/trackRenderer.ts';
import { drawRuler, RULER_HEIGHT_CSS } from './renderers/ruler.ts';
import { MARKS_ROW_CSS } from './rowGeometry.ts';
import type { TextMeasurer } from './text.ts';
import type { Theme } from './theme.ts';
import { axisTicks, type Axis } from './ticks.ts';
import type { TimeScale } from './timeScale.ts';
import { rowAtY, visibleRows, type LayoutRow, type TrackLayout } from './trackLayout.ts';
import { snapCss, type CssPx } from './units.ts';

export { RULER_HEIGHT_CSS };

export interface Frame {
  layout: TrackLayout;
  /** Time <-> x over the canvas width, on the shared axis. */
  scale: TimeScale;
  /** Vertical scroll of the rows (content y at the top of the track area). */
  scrollTopCss: CssPx;
  /** Canvas size, ruler included. */
  widthCss: CssPx;
  heightCss: CssPx;
  theme: Theme;
  dpr: number;
  /** Draws the rows' opaque boxes as image strips on the static canvas (the page); absent: one fillRect per box. */
  strips?: RectStrips | null;
}

/** Canvas y of the top of a row: pinned rows sit in the band under the ruler, the others scroll. */
export function rowTopCss(frame: Frame, row: LayoutRow): CssPx {
  return RULER_HEIGHT_CSS + row.yCss - (row.pinned ? 0 : frame.scrollTopCss);
}

/** Canvas y from which a row can show: under the ruler for a pinned row, under the pinned band for the others. */
export function rowClipTopCss(frame: Frame, row: LayoutRow): CssPx {
  return RULER_HEIGHT_CSS + (row.pinned ? 0 : frame.layout.pinnedHeightCss);
}

/** Scrolled rows at least partly visible below the pinned band: [first, last). */
export function framedRows(frame: Frame): [number, number] {
  const top = frame.scrollTopCss + frame.layout.pinnedHeightCss;
  const [first, last] = visibleRows(frame.layout, top, frame.scrollTopCss + frame.heightCss - RULER_HEIGHT_CSS);
  return [Math.max(first, frame.layout.pinnedCount), last];
}

/** The content y (layout coordinates) under a canvas y below the ruler: in the pinned band, or in the scrolled rows. */
export function contentYAt(frame: Frame, yCss: CssPx): CssPx {
  const y = yCss - RULER_HEIGHT_CSS;
  return y < frame.layout.pinnedHeightCss ? y : y + frame.scrollTopCss;
}

export function drawStaticFrame(ctx: Canvas2D, frame: Frame, text: TextMeasurer): Axis {
  const axis = axisTicks(frame.scale);
  drawStaticSlice(ctx, frame, text, null, Infinity, axis);
  return axis;
}

/**
 * Part of the static frame: with `fromRow` null, the background, grid and ruler and then the rows
 * from the first visible one; else the rows from `fromRow` over what an earlier slice of the same
 * frame drew. Stops after the row during which the clock (`now`, ms) passed `deadlineMs` and returns
 * the next row to draw, or -1 once every visible row is drawn. Slices in a row draw exactly what
 * one `drawStaticFrame` draws; the controller uses them to spread a new layout's first draw (cold
 * code, many rows) over several frames.
 */
export function drawStaticSlice(
  ctx: Canvas2D,
  frame: Frame,
  text: TextMeasurer,
  fromRow: number | null,
  deadlineMs: number,
  axis: Axis = axisTicks(frame.scale),
  now: () => number = () => performance.now(),
): number {
  const { theme, dpr, widthCss, heightCss } = frame;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.globalAlpha = 1;
  if (fromRow === null) {
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, widthCss, heightCss);
    drawRuler(ctx, frame, axis);
  }

  // No clip around the rows: each row is clipped to its own area (the pinned band or the scrolled rows), inside this one.
  ctx.save();
  if (fromRow === null) {
    ctx.fillStyle = theme.grid;
    for (const tick of axis.ticks) ctx.fillRect(snapCss(tick.xCss, dpr), RULER_HEIGHT_CSS, 1, heightCss);
  }

  ctx.font = theme.labelFont;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  text.setFont(theme.labelFont);
  const scales = new Map<number, TimeScale>();
  // Row indices in draw order: the pinned band, then the scrolled rows visible below it. A slice
  // goes on from `fromRow` in this order.
  const { pinnedCount, pinnedHeightCss } = frame.layout;
  const [first, last] = framedRows(frame);
  const order: number[] = [];
  for (let r = 0; r < pinnedCount; r++) order.push(r);
  for (let r = first; r < last; r++) order.push(r);
  const bandBottom = RULER_HEIGHT_CSS + Math.min(pinnedHeightCss, heightCss - RULER_HEIGHT_CSS);
  const start = fromRow === null ? 0 : Math.max(0, order.indexOf(fromRow));
  for (let k = start; k < order.length; k++) {
    const r = order[k];
    const row = frame.layout.rows[r];
    // Scrolled rows show from under the band down; the band's rows from the ruler to the band's bottom.
    const top = row.pinned ? 0 : frame.scrollTopCss + pinnedHeightCss;
    const bottom = row.pinned ? pinnedHeightCss : frame.scrollTopCss + heightCss - RULER_HEIGHT_CSS;
    if (row.yCss >= bottom || row.yCss + row.heightCss <= top) continue;
    let scale = scales.get(row.offsetNs);
    if (!scale) scales.set(row.offsetNs, (scale = frame.scale.forCapture(row.offsetNs)));
    ctx.save();
    ctx.beginPath();
    if (row.pinned) ctx.rect(0, RULER_HEIGHT_CSS, widthCss, bandBottom - RULER_HEIGHT_CSS);
    else ctx.rect(0, bandBottom, widthCss, heightCss - bandBottom);
    ctx.clip();
    const originYCss = rowTopCss(frame, row);
    ctx.translate(0, originYCss);
    rendererFor(row).draw({
      ctx,
      row,
      scale,
      theme,
      paint: row.match ? searchPaint(row.model, theme.dark, theme.bg, row.match) : stylePaint(row.model, theme.dark),
      text,
      dpr,
      visibleTopCss: Math.max(0, top - row.yCss),
      visibleBottomCss: Math.min(row.heightCss, bottom - row.yCss),
      strips: frame.strips ? { strips: frame.strips, originYCss, dpr, widthCss } : null,
    });
    ctx.fillStyle = row.track < 0 || (row.pinned && r === pinnedCount - 1) ? theme.border : theme.grid;
    ctx.fillRect(0, row.heightCss - 1 / dpr, widthCss, 1 / dpr);
    ctx.restore();
    if (k + 1 < order.length && now() >= deadlineMs) {
      ctx.restore();
      return order[k + 1];
    }
  }
  ctx.restore();
  return -1;
}

/** The row under a canvas y, or null on the time axis and below the last row. */
export function rowAtFrameY(frame: Frame, yCss: CssPx): LayoutRow | null {
  if (yCss < RULER_HEIGHT_CSS) return null;
  const r = rowAtY(frame.layout, contentYAt(frame, yCss));
  return r < 0 ? null : frame.layout.rows[r];
}

/** What is under a canvas point: a range, mark or counter sample; 'ruler' on the time axis. */
export function hitTestFrame(frame: Frame, xCss: CssPx, yCss: CssPx): Hit | 'ruler' | null {
  if (yCss < RULER_HEIGHT_CSS) return 'ruler';
  const contentY = contentYAt(frame, yCss);
  const r = rowAtY(frame.layout, contentY);
  if (r < 0) return null;
  const row = frame.layout.rows[r];
  return rendererFor(row).hitTest(xCss, contentY - row.yCss, { row, scale: frame.scale.forCapture(row.offsetNs) });
}

/** The box a range is drawn in (canvas CSS px, not clipped), or null when its row is hidden. */
export function locateRange(frame: Frame, captureId: number, index: number): BoxCss | null {
  const capture = frame.layout.captures.find((c) => c.id === captureId);
  if (!capture || index < 0 || index >= capture.model.ranges.startNs.length) return null;
  const r = frame.layout.rowOfTrack(captureId, trackOfRange(capture.model, index));
  if (r < 0) return null;
  const row = frame.layout.rows[r];
  const box = rangeBoxInRow(capture.model, row.geometry!, index, frame.scale.forCapture(row.offsetNs));
  box.y += rowTopCss(frame, row);
  box.clipTopCss = rowClipTopCss(frame, row);
  return box;
}

/** Centre and half-size of a mark's diamond on a given row (its marks row or a category strip). */
export function locateMarkInRow(frame: Frame, row: LayoutRow, index: number): { x: CssPx; y: CssPx; half: CssPx; clipTopCss: CssPx } {
  const onMarksRow = row.model.tracks[row.track].kind === 'marks';
  return {
    x: frame.scale.forCapture(row.offsetNs).toX(row.model.marks.timeNs[index]),
    y: rowTopCss(frame, row) + (onMarksRow ? MARKS_ROW_CSS / 2 : row.geometry!.markStripCss / 2),
    half: onMarksRow ? MARK_HALF_CSS : STRIP_MARK_HALF_CSS,
    clipTopCss: rowClipTopCss(frame, row),
  };
}

/** A mark on its thread's marks row, or null when that row is hidden. */
export function locateMark(frame: Frame, captureId: number, index: number): { x: CssPx; y: CssPx; half: CssPx; clipTopCss: CssPx } | null {
  const capture = frame.layout.captures.find((c) => c.id === captureId);
  if (!capture || index < 0 || index >= capture.model.marks.timeNs.length) return null;
  const r = frame.layout.rowOfTrack(captureId, trackOfMark(capture.model, index));
  return r < 0 ? null : locateMarkInRow(frame, frame.layout.rows[r], index);
}
