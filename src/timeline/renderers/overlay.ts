/**
 * The overlay canvas, redrawn on pointer moves and selection changes without touching the rows:
 * the selected span as a translucent band with its duration, the selected range or mark outlined
 * (and a selected range's correlated partners, dashed: a CUDA call's GPU work), the hovered one
 * outlined, and the cursor line with its time on the ruler.
 */
import type { Selection, TimeFlag } from '../../state/viewerStore.ts';
import { drawFlags } from './flags.ts';
import type { Canvas2D } from '../canvas2d.ts';
import { outlinedPartners } from '../correlation.ts';
import { formatDuration, formatTimeAtResolution } from '../../format/time.ts';
import { locateMark, locateMarkInRow, locateRange, rowClipTopCss, rowTopCss, type Frame } from '../frame.ts';
import { drawHighlights, type HighlightIndex } from './highlight.ts';
import { drawPartnerArrows } from './partnerArrows.ts';
import { rangeBoxInRow } from './rangeRow.ts';
import { counterValueAt, counterValueScale } from './counterRow.ts';
import { RULER_HEIGHT_CSS } from './ruler.ts';
import type { BoxCss, Hit } from './trackRenderer.ts';
import { snapCss, type CssPx } from '../units.ts';

export interface OverlayState {
  /** Pointer position on the canvas, or null when outside. */
  pointer: { xCss: CssPx; yCss: CssPx } | null;
  hover: Hit | null;
  selection: Selection;
  span: { startNs: number; endNs: number } | null;
  /** Ranges the statistics panel points out (store `highlight`), indexed by start. */
  highlight?: HighlightIndex | null;
  /** Flags on the time axis, in time order. */
  flags?: readonly TimeFlag[];
}

/**
 * True when the overlay would draw nothing: no pointer, hover, selection, span, highlight or flag.
 * A blank overlay that stays blank need not be cleared again, which spares the canvas its raster and
 * its hand-over to the compositor in every frame of a pan or zoom without the pointer on the canvas.
 */
export function overlayIsBlank(state: OverlayState): boolean {
  return state.pointer === null && state.hover === null && !state.selection && !state.span && !state.highlight && !(state.flags && state.flags.length > 0);
}

export function drawOverlay(ctx: Canvas2D, frame: Frame, state: OverlayState): void {
  const { dpr, widthCss, heightCss, theme, scale } = frame;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, widthCss, heightCss);
  ctx.globalAlpha = 1;
  ctx.font = theme.rulerFont;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';

  if (state.span) {
    const x0 = Math.max(-1, scale.toX(state.span.startNs));
    const x1 = Math.min(widthCss + 1, scale.toX(state.span.endNs));
    if (x1 >= 0 && x0 <= widthCss) {
      ctx.fillStyle = theme.selection;
      ctx.fillRect(x0, 0, Math.max(1, x1 - x0), heightCss);
      ctx.fillStyle = theme.accent;
      ctx.fillRect(snapCss(x0, dpr), 0, 1, heightCss);
      ctx.fillRect(snapCss(x1, dpr), 0, 1, heightCss);
      const label = formatDuration(state.span.endNs - state.span.startNs);
      const centre = (Math.max(0, x0) + Math.min(widthCss, x1)) / 2;
      // Just under the ruler, so that the cursor's time on the ruler never covers it.
      drawPill(ctx, frame, label, centre, RULER_HEIGHT_CSS + 3, theme.accent, theme.bg);
    }
  }

  if (state.highlight) drawHighlights(ctx, frame, state.highlight);
  if (state.flags && state.flags.length > 0) {
    drawFlags(ctx, frame, state.flags, (text, x, y, fill) => drawPill(ctx, frame, text, x, y, fill, theme.bg));
  }

  ctx.save();
  ctx.beginPath();
  ctx.rect(0, RULER_HEIGHT_CSS, widthCss, heightCss - RULER_HEIGHT_CSS);
  ctx.clip();
  if (state.hover) outlineHit(ctx, frame, state.hover, theme.fg, 1);
  const selected = selectionOutline(frame, state.selection);
  if (selected) strokeBox(ctx, frame, selected, theme.accent, 2);
  // A selected CUDA API call's GPU work (or a kernel's launching call), dashed.
  const partners = partnerOutlines(frame, state.selection);
  if (partners.length > 0) {
    ctx.setLineDash([4, 3]);
    for (const box of partners) strokeBox(ctx, frame, box, theme.accent, 2);
    ctx.setLineDash([]);
    drawPartnerArrows(ctx, frame, state.selection, theme.accent);
  }
  ctx.restore();

  if (state.pointer) {
    const x = snapCss(state.pointer.xCss, dpr);
    ctx.globalAlpha = 0.55;
    ctx.fillStyle = theme.fgMuted;
    ctx.fillRect(x, RULER_HEIGHT_CSS, 1 / dpr, heightCss - RULER_HEIGHT_CSS);
    ctx.globalAlpha = 1;
    const time = formatTimeAtResolution(scale.toNs(state.pointer.xCss), scale.nsPerPx);
    drawPill(ctx, frame, time, x, (RULER_HEIGHT_CSS - PILL_HEIGHT_CSS) / 2, theme.fg, theme.bg);
  }
}

function selectionOutline(frame: Frame, selection: Selection): BoxCss | null {
  if (!selection) return null;
  if (selection.kind === 'range') return locateRange(frame, selection.capture, selection.index);
  const point = locateMark(frame, selection.capture, selection.index);
  return point && { x0: point.x - point.half - 2, x1: point.x + point.half + 2, y: point.y - point.half - 2, h: 2 * point.half + 4, clipTopCss: point.clipTopCss };
}

function partnerOutlines(frame: Frame, selection: Selection): BoxCss[] {
  if (!selection || selection.kind !== 'range') return [];
  const capture = frame.layout.captures.find((c) => c.id === selection.capture);
  if (!capture || selection.index >= capture.model.ranges.startNs.length) return [];
  const boxes: BoxCss[] = [];
  for (const partner of outlinedPartners(capture.model, selection.index)) {
    const box = locateRange(frame, selection.capture, partner);
    if (box) boxes.push(box);
  }
  return boxes;
}

function outlineHit(ctx: Canvas2D, frame: Frame, hit: Hit, color: string, lineWidth: number): void {
  const row = hit.row;
  const scale = frame.scale.forCapture(row.offsetNs);
  if (hit.kind === 'range') {
    const box = rangeBoxInRow(row.model, row.geometry!, hit.index, scale);
    box.y += rowTopCss(frame, row);
    box.clipTopCss = rowClipTopCss(frame, row);
    strokeBox(ctx, frame, box, color, lineWidth);
  } else if (hit.kind === 'mark') {
    const p = locateMarkInRow(frame, row, hit.index);
    strokeBox(ctx, frame, { x0: p.x - p.half - 2, x1: p.x + p.half + 2, y: p.y - p.half - 2, h: 2 * p.half + 4, clipTopCss: p.clipTopCss }, color, lineWidth);
  } else {
    const model = row.model;
    const { yOf } = counterValueScale(model, row.track, row.heightCss);
    const x = scale.toX(hit.tNs);
    // The value the tooltip shows (interpolated on linear rows); none where the sample has no value.
    const value = counterValueAt(model, model.tracks[row.track], hit.sample, hit.tNs);
    if (Number.isNaN(value)) return;
    const y = rowTopCss(frame, row) + yOf(value);
    if (y < rowClipTopCss(frame, row)) return;
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.moveTo(x, y - 3.5);
    ctx.lineTo(x + 3.5, y);
    ctx.lineTo(x, y + 3.5);
    ctx.lineTo(x - 3.5, y);
    ctx.closePath();
    ctx.fill();
  }
}

function strokeBox(ctx: Canvas2D, frame: Frame, box: BoxCss, color: string, lineWidth: number): void {
  // Boxes reaching far off screen are clipped first: huge coordinates draw badly.
  const x0 = Math.max(-4, box.x0);
  const x1 = Math.min(frame.widthCss + 4, Math.max(box.x1, box.x0 + 1));
  if (x1 < -2 || x0 > frame.widthCss + 2) return;
  const half = lineWidth / 2;
  // A box of a row scrolled under the pinned band shows only below the band.
  const top = box.clipTopCss ?? RULER_HEIGHT_CSS;
  if (box.y + box.h <= top) return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(-8, top, frame.widthCss + 16, frame.heightCss - top);
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = lineWidth;
  ctx.strokeRect(x0 - half, box.y - half, x1 - x0 + lineWidth, box.h + lineWidth);
  ctx.restore();
}

const PILL_HEIGHT_CSS: CssPx = 17;

/** A label in a rounded box with its top at y, centred at x and kept inside the canvas. */
function drawPill(ctx: Canvas2D, frame: Frame, text: string, xCss: CssPx, y: CssPx, fill: string, textColor: string): void {
  const w = ctx.measureText(text).width + 10;
  const h = PILL_HEIGHT_CSS;
  const x = Math.min(frame.widthCss - w - 1, Math.max(1, xCss - w / 2));
  ctx.fillStyle = fill;
  ctx.beginPath();
  const r = 4;
  ctx.moveTo(x + r, y);
  ctx.lineTo(x + w - r, y);
  ctx.lineTo(x + w, y + r);
  ctx.lineTo(x + w, y + h - r);
  ctx.lineTo(x + w - r, y + h);
  ctx.lineTo(x + r, y + h);
  ctx.lineTo(x, y + h - r);
  ctx.lineTo(x, y + r);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = textColor;
  ctx.fillText(text, x + 5, y + h / 2 + 0.5);
}
