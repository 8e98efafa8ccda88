/**
 * Boxes and diamonds collected per fill color while a row is walked, then drawn color by color:
 * a canvas pays for every fillStyle change (the color string is parsed), so a row of alternating
 * names would otherwise pay once per box.
 */
import type { Canvas2D } from '../canvas2d.ts';
import type { StripPlacement } from './rectStrips.ts';

/** Diamonds at most this far apart merge into one shape (the notch between them is at most half of it). */
const MERGE_DIAMONDS_CSS = 1;

export class ShapeBatch {
  /** Per color: x, y, w, h of each rectangle. */
  private readonly rects = new Map<string, number[]>();
  /**
   * Per color: x0, x1, y, half-size of each run of diamonds: diamonds of one color and size on one
   * line at most MERGE_DIAMONDS_CSS apart (dense marks, one per pixel column) are one shape, their
   * union (a hexagon from x0 - half to x1 + half), instead of one path contour each.
   */
  private readonly diamonds = new Map<string, number[]>();
  /** Torn right edges of unterminated ranges: x1, y, h (cut with the background color). */
  private readonly tears: number[] = [];

  rect(color: string, x: number, y: number, w: number, h: number): void {
    let list = this.rects.get(color);
    if (!list) this.rects.set(color, (list = []));
    list.push(x, y, w, h);
  }

  diamond(color: string, x: number, y: number, half: number): void {
    let list = this.diamonds.get(color);
    if (!list) this.diamonds.set(color, (list = []));
    const n = list.length;
    if (n > 0 && list[n - 2] === y && list[n - 1] === half && x >= list[n - 3] && x - list[n - 3] <= MERGE_DIAMONDS_CSS) {
      list[n - 3] = x;
      return;
    }
    list.push(x, x, y, half);
  }

  tear(x1: number, y: number, h: number): void {
    this.tears.push(x1, y, h);
  }

  /**
   * Draws everything collected (rectangles, then diamonds, then tears) and empties the batch. With
   * `strips` for this context, the rectangles go as image strips where that draws the same pixels.
   */
  flush(ctx: Canvas2D, backgroundColor: string, tearDepthCss: number, strips: StripPlacement | null = null): void {
    if (strips !== null && strips.strips.target === ctx) strips.strips.draw(this.rects, strips);
    for (const [color, r] of this.rects) {
      if (r.length === 0) continue;
      ctx.fillStyle = color;
      for (let i = 0; i < r.length; i += 4) ctx.fillRect(r[i], r[i + 1], r[i + 2], r[i + 3]);
      r.length = 0;
    }
    for (const [color, d] of this.diamonds) {
      if (d.length === 0) continue;
      ctx.fillStyle = color;
      ctx.beginPath();
      for (let i = 0; i < d.length; i += 4) {
        const x0 = d[i];
        const x1 = d[i + 1];
        const y = d[i + 2];
        const half = d[i + 3];
        ctx.moveTo(x0, y - half);
        if (x1 > x0) ctx.lineTo(x1, y - half);
        ctx.lineTo(x1 + half, y);
        ctx.lineTo(x1, y + half);
        if (x1 > x0) ctx.lineTo(x0, y + half);
        ctx.lineTo(x0 - half, y);
        // No closePath: fill() closes every subpath itself, and a dense marks row has a thousand.
      }
      ctx.fill();
      d.length = 0;
    }
    const t = this.tears;
    if (t.length > 0) {
      ctx.fillStyle = backgroundColor;
      ctx.beginPath();
      for (let i = 0; i < t.length; i += 3) {
        const x1 = t[i];
        const y = t[i + 1];
        const h = t[i + 2];
        ctx.moveTo(x1 + 1, y);
        ctx.lineTo(x1, y);
        for (let k = 1; k <= 4; k++) ctx.lineTo(k % 2 ? x1 - tearDepthCss : x1, y + (h * k) / 4);
        ctx.lineTo(x1 + 1, y + h);
        ctx.closePath();
      }
      ctx.fill();
      t.length = 0;
    }
  }
}
