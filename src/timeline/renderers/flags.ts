/**
 * Flags on the time axis (Perfetto's markers): a line through the rows, a flag head with its note
 * on the ruler, and the time between neighbouring flags, so two flags measure an interval.
 */
import type { TimeFlag } from '../../state/viewerStore.ts';
import { formatDuration } from '../../format/time.ts';
import type { Canvas2D } from '../canvas2d.ts';
import type { Frame } from '../frame.ts';
import { RULER_HEIGHT_CSS } from './ruler.ts';
import { snapCss, type CssPx } from '../units.ts';

/** Flags are orange in both themes: apart from the accent (selection) and from range colors' usual blues. */
export const FLAG_COLOR = '#e8710a';
const HEAD_W_CSS: CssPx = 9;
const HEAD_H_CSS: CssPx = 8;
/** How far from a flag's line a click on the ruler still hits it. */
export const FLAG_HIT_CSS: CssPx = 6;
const NOTE_MAX_CSS: CssPx = 160;

export function drawFlags(ctx: Canvas2D, frame: Frame, flags: readonly TimeFlag[], pill: (text: string, xCss: CssPx, y: CssPx, fill: string) => void): void {
  const { scale, widthCss, heightCss, dpr } = frame;
  let prevX: number | null = null;
  let prevT = 0;
  for (const flag of flags) {
    const x = scale.toX(flag.timeNs);
    if (prevX !== null && (x >= 0 || prevX <= widthCss)) {
      // The interval to the previous flag, under the ruler, centred on its visible part.
      const centre = (Math.max(0, prevX) + Math.min(widthCss, x)) / 2;
      if (x - prevX > 40) pill(formatDuration(flag.timeNs - prevT), centre, RULER_HEIGHT_CSS + 3, FLAG_COLOR);
    }
    prevX = x;
    prevT = flag.timeNs;
    if (x < -NOTE_MAX_CSS || x > widthCss + 1) continue;
    const sx = snapCss(x, dpr);
    ctx.fillStyle = FLAG_COLOR;
    ctx.setLineDash([]);
    ctx.globalAlpha = 0.9;
    ctx.fillRect(sx, 0, 1, heightCss);
    ctx.globalAlpha = 1;
    ctx.beginPath();
    ctx.moveTo(sx, 1);
    ctx.lineTo(sx + HEAD_W_CSS, 1 + HEAD_H_CSS / 2);
    ctx.lineTo(sx, 1 + HEAD_H_CSS);
    ctx.closePath();
    ctx.fill();
    if (flag.note) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(sx + HEAD_W_CSS + 2, 0, NOTE_MAX_CSS, HEAD_H_CSS + 4);
      ctx.clip();
      ctx.fillText(flag.note, sx + HEAD_W_CSS + 3, 1 + HEAD_H_CSS / 2 + 0.5);
      ctx.restore();
    }
  }
}

/** The flag whose line is nearest to a point on the ruler (within FLAG_HIT_CSS), or null. */
export function flagAt(frame: Frame, flags: readonly TimeFlag[], xCss: CssPx, yCss: CssPx): TimeFlag | null {
  if (yCss >= RULER_HEIGHT_CSS) return null;
  let best: TimeFlag | null = null;
  let bestD = FLAG_HIT_CSS;
  for (const flag of flags) {
    const x = frame.scale.toX(flag.timeNs);
    // The head and its note reach to the right of the line.
    const d = xCss >= x && xCss <= x + HEAD_W_CSS && yCss <= HEAD_H_CSS + 2 ? 0 : Math.abs(xCss - x);
    if (d <= bestD) {
      best = flag;
      bestD = d;
    }
  }
  return best;
}
