/**
 * A canvas context that records draw calls instead of drawing, for tests of what renderers draw
 * (Firefox Profiler style). Coordinates are recorded in canvas CSS px (translations applied; the
 * device pixel ratio transform is ignored). Text is 6 px per character.
 */
import type { Canvas2D } from '../../src/timeline/canvas2d.ts';

export interface DrawCall {
  op: 'fillRect' | 'strokeRect' | 'fillText' | 'fill' | 'stroke' | 'clearRect' | 'lineTo' | 'moveTo';
  x: number;
  y: number;
  w: number;
  h: number;
  text?: string;
  fillStyle: string;
  strokeStyle: string;
}

export const CHAR_WIDTH = 6;

export class RecordingCanvas implements Canvas2D {
  calls: DrawCall[] = [];
  fillStyle: string | CanvasGradient | CanvasPattern = '#000000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000000';
  lineWidth = 1;
  font = '10px sans-serif';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  textAlign: CanvasTextAlign = 'start';
  globalAlpha = 1;
  private tx = 0;
  private ty = 0;
  private readonly stack: [number, number][] = [];

  private record(op: DrawCall['op'], x: number, y: number, w = 0, h = 0, text?: string): void {
    this.calls.push({
      op,
      x: x + this.tx,
      y: y + this.ty,
      w,
      h,
      text,
      fillStyle: String(this.fillStyle),
      strokeStyle: String(this.strokeStyle),
    });
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    this.record('fillRect', x, y, w, h);
  }
  strokeRect(x: number, y: number, w: number, h: number): void {
    this.record('strokeRect', x, y, w, h);
  }
  clearRect(x: number, y: number, w: number, h: number): void {
    this.record('clearRect', x, y, w, h);
  }
  fillText(text: string, x: number, y: number): void {
    this.record('fillText', x, y, text.length * CHAR_WIDTH, 0, text);
  }
  measureText(text: string): TextMetrics {
    return { width: text.length * CHAR_WIDTH } as TextMetrics;
  }
  beginPath(): void {}
  moveTo(x: number, y: number): void {
    this.record('moveTo', x, y);
  }
  lineTo(x: number, y: number): void {
    this.record('lineTo', x, y);
  }
  closePath(): void {}
  stroke(): void {
    this.record('stroke', 0, 0);
  }
  fill(): void {
    this.record('fill', 0, 0);
  }
  rect(): void {}
  clip(): void {}
  save(): void {
    this.stack.push([this.tx, this.ty]);
  }
  restore(): void {
    const top = this.stack.pop();
    if (top) [this.tx, this.ty] = top;
  }
  setTransform(): void {
    this.tx = 0;
    this.ty = 0;
  }
  translate(x: number, y: number): void {
    this.tx += x;
    this.ty += y;
  }
  setLineDash(): void {}

  count(op: DrawCall['op']): number {
    return this.calls.reduce((n, c) => n + (c.op === op ? 1 : 0), 0);
  }
}
