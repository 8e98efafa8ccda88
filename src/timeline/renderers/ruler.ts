/** The time axis strip at the top of the canvas: tick marks and labels, and the base time when labels are offsets. */
import type { Canvas2D } from '../canvas2d.ts';
import type { Theme } from '../theme.ts';
import type { Axis } from '../ticks.ts';
import type { TimeScale } from '../timeScale.ts';
import { snapCss, type CssPx } from '../units.ts';

export const RULER_HEIGHT_CSS: CssPx = 28;
const TICK_CSS: CssPx = 7;
const MINOR_TICK_CSS: CssPx = 3;
/** Minor ticks closer than this are left out. */
const MINOR_MIN_SPACING_CSS: CssPx = 8;

/** What the ruler reads of a `Frame` (a frame is one; the ruler does not import frame.ts, which draws it). */
export interface RulerView {
  theme: Theme;
  dpr: number;
  widthCss: CssPx;
  scale: TimeScale;
}

export function drawRuler(ctx: Canvas2D, frame: RulerView, axis: Axis): void {
  const { theme, dpr, widthCss } = frame;
  ctx.fillStyle = theme.panelBg;
  ctx.fillRect(0, 0, widthCss, RULER_HEIGHT_CSS);
  ctx.fillStyle = theme.border;
  ctx.fillRect(0, RULER_HEIGHT_CSS - 1 / dpr, widthCss, 1 / dpr);

  ctx.font = theme.rulerFont;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  let baseRight = -Infinity;
  if (axis.baseLabel) {
    const text = axis.baseLabel;
    const w = ctx.measureText(text).width + 12;
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 3, w, RULER_HEIGHT_CSS - 7);
    ctx.fillStyle = theme.fg;
    ctx.fillText(text, 6, (RULER_HEIGHT_CSS - 1) / 2);
    baseRight = w;
  }
  const scale = frame.scale;
  if (axis.minorStepNs * scale.pxPerNs >= MINOR_MIN_SPACING_CSS) {
    ctx.fillStyle = theme.border;
    const first = Math.ceil(scale.startNs / axis.minorStepNs);
    const last = Math.floor(scale.endNs / axis.minorStepNs);
    for (let k = first; k <= last; k++) {
      ctx.fillRect(snapCss(scale.toX(k * axis.minorStepNs), dpr), RULER_HEIGHT_CSS - MINOR_TICK_CSS, 1, MINOR_TICK_CSS);
    }
  }
  for (const tick of axis.ticks) {
    const x = snapCss(tick.xCss, dpr);
    ctx.fillStyle = theme.fgMuted;
    ctx.fillRect(x, RULER_HEIGHT_CSS - TICK_CSS, 1, TICK_CSS);
    // Labels sit right of their tick; one that would be cut at the right edge is left out.
    if (x + 4 > baseRight && x + 4 + ctx.measureText(tick.label).width <= widthCss) {
      ctx.fillStyle = theme.fg;
      ctx.fillText(tick.label, x + 4, RULER_HEIGHT_CSS / 2 - 2);
    }
  }
}
