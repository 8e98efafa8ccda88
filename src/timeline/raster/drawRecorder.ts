/**
 * A `Canvas2D` that records the calls of a static frame as numbers (an opcode and up to four
 * arguments each) and a string list, so that another thread can replay them on its own canvas
 * (`replayDraw`): the main thread then pays for the frame's logic and this recording, and the
 * canvas calls, their raster and the canvas's hand-over to the compositor happen in the worker.
 * Text is measured on the main thread by `measure`, in the font last set here.
 */
import type { Canvas2D } from '../canvas2d.ts';

/** What each recorded entry does; the replay reads them back in this order. */
export const DrawOp = {
  FillStyle: 1,
  StrokeStyle: 2,
  Font: 3,
  TextBaseline: 4,
  TextAlign: 5,
  GlobalAlpha: 6,
  LineWidth: 7,
  FillRect: 8,
  StrokeRect: 9,
  ClearRect: 10,
  FillText: 11,
  BeginPath: 12,
  MoveTo: 13,
  LineTo: 14,
  ClosePath: 15,
  Stroke: 16,
  Fill: 17,
  Rect: 18,
  Clip: 19,
  Save: 20,
  Restore: 21,
  SetTransform: 22,
  Translate: 23,
  SetLineDash: 24,
} as const;
export type DrawOp = (typeof DrawOp)[keyof typeof DrawOp];

/** Numbers per entry: the opcode and four arguments (unused ones are 0). */
export const ENTRY = 5;

/** A frame's calls, ready to post: `ops[0, count * ENTRY)` and the strings they index. */
export interface RecordedDraw {
  ops: Float64Array<ArrayBuffer>;
  count: number;
  strings: string[];
}

export class DrawRecorder implements Canvas2D {
  private ops: Float64Array<ArrayBuffer> = new Float64Array(ENTRY * 4096);
  private n = 0;
  /** A replayed frame's buffer, handed back by `recycle` for the next `take`. */
  private spare: Float64Array<ArrayBuffer> | null = null;
  private strings: string[] = [];
  private fill_: string | CanvasGradient | CanvasPattern = '#000000';
  private stroke_: string | CanvasGradient | CanvasPattern = '#000000';
  private font_ = '10px sans-serif';
  private baseline: CanvasTextBaseline = 'alphabetic';
  private align: CanvasTextAlign = 'start';
  private alpha = 1;
  private width = 1;
  /** The state above at each `save` not yet restored. */
  private saved: [string | CanvasGradient | CanvasPattern, string | CanvasGradient | CanvasPattern, string, CanvasTextBaseline, CanvasTextAlign, number, number][] = [];

  /** `measure(text, font)`: the width of `text` in `font`, as the replaying canvas would draw it. */
  constructor(private readonly measure: (text: string, font: string) => number) {}

  /** Hands over what was recorded since the last call and starts a new recording. */
  take(): RecordedDraw {
    const out = { ops: this.ops, count: this.n / ENTRY, strings: this.strings };
    this.ops = this.spare !== null && this.spare.length >= this.ops.length ? this.spare : new Float64Array(this.ops.length);
    this.spare = null;
    this.n = 0;
    this.strings = [];
    return out;
  }

  /** Gives back a buffer the replay is done with: the next `take` records into it instead of allocating. */
  recycle(ops: Float64Array<ArrayBuffer>): void {
    if (ops.byteLength > 0 && (this.spare === null || ops.length > this.spare.length)) this.spare = ops;
  }

  private put(op: DrawOp, a = 0, b = 0, c = 0, d = 0): void {
    if (this.n + ENTRY > this.ops.length) {
      const grown = new Float64Array(this.ops.length * 2);
      grown.set(this.ops);
      this.ops = grown;
    }
    const o = this.ops;
    const n = this.n;
    o[n] = op;
    o[n + 1] = a;
    o[n + 2] = b;
    o[n + 3] = c;
    o[n + 4] = d;
    this.n = n + ENTRY;
  }

  private text(s: string): number {
    return this.strings.push(s) - 1;
  }

  // Only colors given as strings are recorded (the timeline uses no gradients or patterns).
  get fillStyle(): string | CanvasGradient | CanvasPattern {
    return this.fill_;
  }
  set fillStyle(v: string | CanvasGradient | CanvasPattern) {
    this.fill_ = v;
    this.put(DrawOp.FillStyle, this.text(String(v)));
  }
  get strokeStyle(): string | CanvasGradient | CanvasPattern {
    return this.stroke_;
  }
  set strokeStyle(v: string | CanvasGradient | CanvasPattern) {
    this.stroke_ = v;
    this.put(DrawOp.StrokeStyle, this.text(String(v)));
  }
  get font(): string {
    return this.font_;
  }
  set font(v: string) {
    this.font_ = v;
    this.put(DrawOp.Font, this.text(v));
  }
  get textBaseline(): CanvasTextBaseline {
    return this.baseline;
  }
  set textBaseline(v: CanvasTextBaseline) {
    this.baseline = v;
    this.put(DrawOp.TextBaseline, this.text(v));
  }
  get textAlign(): CanvasTextAlign {
    return this.align;
  }
  set textAlign(v: CanvasTextAlign) {
    this.align = v;
    this.put(DrawOp.TextAlign, this.text(v));
  }
  get globalAlpha(): number {
    return this.alpha;
  }
  set globalAlpha(v: number) {
    this.alpha = v;
    this.put(DrawOp.GlobalAlpha, v);
  }
  get lineWidth(): number {
    return this.width;
  }
  set lineWidth(v: number) {
    this.width = v;
    this.put(DrawOp.LineWidth, v);
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    this.put(DrawOp.FillRect, x, y, w, h);
  }
  strokeRect(x: number, y: number, w: number, h: number): void {
    this.put(DrawOp.StrokeRect, x, y, w, h);
  }
  clearRect(x: number, y: number, w: number, h: number): void {
    this.put(DrawOp.ClearRect, x, y, w, h);
  }
  fillText(text: string, x: number, y: number, maxWidth?: number): void {
    this.put(DrawOp.FillText, this.text(text), x, y, maxWidth ?? NaN);
  }
  measureText(text: string): TextMetrics {
    return { width: this.measure(text, this.font_) } as TextMetrics;
  }
  beginPath(): void {
    this.put(DrawOp.BeginPath);
  }
  moveTo(x: number, y: number): void {
    this.put(DrawOp.MoveTo, x, y);
  }
  lineTo(x: number, y: number): void {
    this.put(DrawOp.LineTo, x, y);
  }
  closePath(): void {
    this.put(DrawOp.ClosePath);
  }
  stroke(): void {
    this.put(DrawOp.Stroke);
  }
  // Path2D arguments and fill rules are not used by the timeline's static frame.
  fill(): void {
    this.put(DrawOp.Fill);
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.put(DrawOp.Rect, x, y, w, h);
  }
  clip(): void {
    this.put(DrawOp.Clip);
  }
  // The state read back here (`measureText` measures in `font`) is saved and restored as a canvas's.
  save(): void {
    this.saved.push([this.fill_, this.stroke_, this.font_, this.baseline, this.align, this.alpha, this.width]);
    this.put(DrawOp.Save);
  }
  restore(): void {
    const state = this.saved.pop();
    if (state) [this.fill_, this.stroke_, this.font_, this.baseline, this.align, this.alpha, this.width] = state;
    this.put(DrawOp.Restore);
  }
  // Only scale-and-translate transforms (a, d, e, f) are used: b and c are 0.
  setTransform(a?: number | DOMMatrix2DInit, _b?: number, _c?: number, d?: number, e?: number, f?: number): void {
    if (typeof a !== 'number') throw new Error('DrawRecorder.setTransform takes numbers');
    this.put(DrawOp.SetTransform, a, d ?? 1, e ?? 0, f ?? 0);
  }
  translate(x: number, y: number): void {
    this.put(DrawOp.Translate, x, y);
  }
  setLineDash(segments: number[]): void {
    // Dashes of up to two segments: [] or [on, off].
    if (segments.length > 2) throw new Error('DrawRecorder.setLineDash takes up to two segments');
    this.put(DrawOp.SetLineDash, segments.length, segments[0] ?? 0, segments[1] ?? 0);
  }
}

/** Replays recorded calls on a context, in order. */
export function replayDraw(ctx: Canvas2D, draw: RecordedDraw): void {
  const { ops, strings } = draw;
  const end = draw.count * ENTRY;
  for (let i = 0; i < end; i += ENTRY) {
    const a = ops[i + 1];
    const b = ops[i + 2];
    const c = ops[i + 3];
    const d = ops[i + 4];
    switch (ops[i]) {
      case DrawOp.FillStyle:
        ctx.fillStyle = strings[a];
        break;
      case DrawOp.StrokeStyle:
        ctx.strokeStyle = strings[a];
        break;
      case DrawOp.Font:
        ctx.font = strings[a];
        break;
      case DrawOp.TextBaseline:
        ctx.textBaseline = strings[a] as CanvasTextBaseline;
        break;
      case DrawOp.TextAlign:
        ctx.textAlign = strings[a] as CanvasTextAlign;
        break;
      case DrawOp.GlobalAlpha:
        ctx.globalAlpha = a;
        break;
      case DrawOp.LineWidth:
        ctx.lineWidth = a;
        break;
      case DrawOp.FillRect:
        ctx.fillRect(a, b, c, d);
        break;
      case DrawOp.StrokeRect:
        ctx.strokeRect(a, b, c, d);
        break;
      case DrawOp.ClearRect:
        ctx.clearRect(a, b, c, d);
        break;
      case DrawOp.FillText:
        if (Number.isNaN(d)) ctx.fillText(strings[a], b, c);
        else ctx.fillText(strings[a], b, c, d);
        break;
      case DrawOp.BeginPath:
        ctx.beginPath();
        break;
      case DrawOp.MoveTo:
        ctx.moveTo(a, b);
        break;
      case DrawOp.LineTo:
        ctx.lineTo(a, b);
        break;
      case DrawOp.ClosePath:
        ctx.closePath();
        break;
      case DrawOp.Stroke:
        ctx.stroke();
        break;
      case DrawOp.Fill:
        ctx.fill();
        break;
      case DrawOp.Rect:
        ctx.rect(a, b, c, d);
        break;
      case DrawOp.Clip:
        ctx.clip();
        break;
      case DrawOp.Save:
        ctx.save();
        break;
      case DrawOp.Restore:
        ctx.restore();
        break;
      case DrawOp.SetTransform:
        ctx.setTransform(a, 0, 0, b, c, d);
        break;
      case DrawOp.Translate:
        ctx.translate(a, b);
        break;
      case DrawOp.SetLineDash:
        ctx.setLineDash(a === 0 ? [] : a === 1 ? [b] : [b, c]);
        break;
      default:
        throw new Error(`replayDraw: unknown opcode ${ops[i]} at entry ${i / ENTRY}`);
    }
  }
}
