/** Labels collected while boxes are drawn and written afterwards, so text never sits under a later box. */
import type { Canvas2D } from '../canvas2d.ts';

export class LabelBatch {
  private readonly xs: number[] = [];
  private readonly ys: number[] = [];
  private readonly texts: string[] = [];
  private readonly colors: string[] = [];

  push(xCss: number, yCss: number, text: string, color: string): void {
    this.xs.push(xCss);
    this.ys.push(yCss);
    this.texts.push(text);
    this.colors.push(color);
  }

  /** Writes the labels (context font and baseline set by the caller) and empties the batch. */
  flush(ctx: Canvas2D): void {
    let color = '';
    for (let i = 0; i < this.texts.length; i++) {
      if (this.colors[i] !== color) {
        color = this.colors[i];
        ctx.fillStyle = color;
      }
      ctx.fillText(this.texts[i], this.xs[i], this.ys[i]);
    }
    this.xs.length = 0;
    this.ys.length = 0;
    this.texts.length = 0;
    this.colors.length = 0;
  }
}
