/**
 * Boxes drawn as image strips must give the pixels of one fillRect per box. Checked on a software
 * canvas that does what a browser's does with device-pixel-aligned opaque fills and with unsmoothed
 * drawImage (nearest pixel), against the fillRects of the same batch, on random rows; the e2e
 * specs and `bench/run.ts frame-profile --pixels` check the same in Chromium.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../testkit/gen/random.ts';
import { MIN_STRIP_RECTS, RectStrips, type StripCanvas, type StripTarget } from './rectStrips.ts';
import { ShapeBatch } from './shapeBatch.ts';

function rgba(color: string): number {
  const v = parseInt(color.slice(1), 16);
  return ((0xff << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >>> 16) & 0xff)) >>> 0;
}

/** Device pixels (Uint32, as in ImageData), a scale-then-translate transform, opaque fills only. */
class PixelCanvas {
  readonly pixels: Uint32Array;
  fillStyle = '#000000';
  globalAlpha = 1;
  imageSmoothingEnabled = true;
  ty = 0;
  calls = 0;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly dpr: number,
  ) {
    this.pixels = new Uint32Array(width * height).fill(rgba('#fafafa'));
  }

  private span(a: number, b: number, limit: number): [number, number] {
    // Box edges must be on device pixels: a fill elsewhere would be anti-aliased.
    if (Math.abs(a - Math.round(a)) >= 1e-6 || Math.abs(b - Math.round(b)) >= 1e-6) throw new Error(`edge off device pixels: ${a}, ${b}`);
    return [Math.max(0, Math.round(a)), Math.min(limit, Math.round(b))];
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    this.calls++;
    const [x0, x1] = this.span(x * this.dpr, (x + w) * this.dpr, this.width);
    const [y0, y1] = this.span((y + this.ty) * this.dpr, (y + this.ty + h) * this.dpr, this.height);
    const value = rgba(this.fillStyle);
    for (let py = y0; py < y1; py++) this.pixels.fill(value, py * this.width + x0, py * this.width + x1);
  }

  drawImage(source: StripSource, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void {
    this.calls++;
    expect(this.imageSmoothingEnabled).toBe(false);
    const [x0, x1] = this.span(dx * this.dpr, (dx + dw) * this.dpr, this.width);
    const [y0, y1] = this.span((dy + this.ty) * this.dpr, (dy + this.ty + dh) * this.dpr, this.height);
    const scaleX = sw / (dw * this.dpr);
    const scaleY = sh / (dh * this.dpr);
    const top = (dy + this.ty) * this.dpr;
    const left = dx * this.dpr;
    for (let py = y0; py < y1; py++) {
      const srcY = Math.floor(sy + (py + 0.5 - top) * scaleY);
      for (let px = x0; px < x1; px++) {
        const srcX = Math.floor(sx + (px + 0.5 - left) * scaleX);
        const v = source.data[srcY * source.width + srcX];
        const alpha = v >>> 24;
        // Only opaque and fully transparent pixels are ever written into a strip.
        if (alpha !== 0 && alpha !== 255) throw new Error(`translucent strip pixel ${v.toString(16)}`);
        if (alpha === 255) this.pixels[py * this.width + px] = v;
      }
    }
  }
}

class StripSource implements StripCanvas {
  data: Uint32Array;
  constructor(
    public width: number,
    public height: number,
  ) {
    this.data = new Uint32Array(width * height);
  }
  getContext(): { putImageData(image: ImageData, dx: number, dy: number): void } {
    return {
      putImageData: (image: ImageData, dx: number, dy: number) => {
        const src = new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
        for (let y = 0; y < image.height; y++) this.data.set(src.subarray(y * image.width, (y + 1) * image.width), (y + dy) * this.width + dx);
      },
    };
  }
}

/** ImageData is a browser class; the strips only construct it. */
if (typeof globalThis.ImageData === 'undefined') {
  (globalThis as { ImageData?: unknown }).ImageData = class {
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  };
}

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#8d97a1', '#000000', '#ffffff'];

/** A random row: levels of boxes (snapped to device pixels, some past both edges), a folded lane of overlapping boxes. */
function randomBatch(random: () => number, widthCss: number, dpr: number, levels: number): ShapeBatch {
  const batch = new ShapeBatch();
  const snap = (x: number) => Math.round(x * dpr) / dpr;
  for (let level = 0; level < levels; level++) {
    const y = 2 + 18 * level;
    const folded = level === levels - 1;
    let x = -3 + random() * 5;
    while (x < widthCss + 3) {
      const wide = random() < 0.2;
      const w = wide ? 3 + random() * 60 : random() * 2.5;
      const x0 = snap(Math.max(x, -2));
      let width = Math.max(1 / dpr, snap(Math.min(x + w, widthCss + 2)) - x0);
      if (width >= 3) width -= 1 / dpr;
      batch.rect(PALETTE[Math.floor(random() * PALETTE.length)], x0, y, width, 17);
      // Folded levels are drawn over each other in one lane.
      x += folded && random() < 0.3 ? -w * random() : w + (random() < 0.5 ? 0 : random() * 6);
    }
  }
  return batch;
}

function draw(batch: ShapeBatch, canvas: PixelCanvas, strips: RectStrips | null, originYCss: number, widthCss: number): void {
  canvas.ty = originYCss;
  batch.flush(canvas as unknown as StripTarget, '#fafafa', 4, strips && { strips, originYCss, dpr: canvas.dpr, widthCss });
}

describe('RectStrips', () => {
  for (const dpr of [1, 2]) {
    it(`draws the pixels of one fillRect per box, at a device pixel ratio of ${dpr} (random rows)`, () => {
      const random = seededRandom(41 + dpr);
      const widthCss = 300;
      for (let k = 0; k < 60; k++) {
        const levels = 1 + Math.floor(random() * 6);
        const originYCss = 24 + Math.floor(random() * 40);
        const seed = Math.floor(random() * 1e9);
        const width = Math.round(widthCss * dpr);
        const height = Math.round((originYCss + 18 * levels + 4) * dpr);
        const direct = new PixelCanvas(width, height, dpr);
        draw(randomBatch(seededRandom(seed), widthCss, dpr, levels), direct, null, originYCss, widthCss);
        const stripped = new PixelCanvas(width, height, dpr);
        const strips = new RectStrips(stripped as unknown as StripTarget, (w, h) => new StripSource(w, h));
        const batch = randomBatch(seededRandom(seed), widthCss, dpr, levels);
        const boxes = direct.calls;
        draw(batch, stripped, strips, originYCss, widthCss);
        // One draw per band instead of one per box (a small batch: one per box).
        if (boxes >= MIN_STRIP_RECTS) expect(stripped.calls).toBeLessThanOrEqual(levels);
        else expect(stripped.calls).toBe(boxes);
        const differ = stripped.pixels.findIndex((v, i) => v !== direct.pixels[i]);
        expect(differ, `row ${k}: first pixel that differs`).toBe(-1);
      }
    });
  }

  it('declines (drawing nothing) what would not give the same pixels, and the batch draws it box by box', () => {
    const make = (dpr: number) => {
      const canvas = new PixelCanvas(200, 80, dpr);
      return { canvas, strips: new RectStrips(canvas as unknown as StripTarget, (w, h) => new StripSource(w, h)) };
    };
    const place = (strips: RectStrips, dpr: number, originYCss = 24) => ({ strips, originYCss, dpr, widthCss: 200 / dpr });
    /** A batch large enough for strips: MIN_STRIP_RECTS boxes of one size along a level. */
    const row = (x: number, y: number, w: number, h: number) => Array.from({ length: MIN_STRIP_RECTS }, (_, k) => [x + 4 * k, y, w, h]).flat();
    const one = (color: string, x: number, y: number, w: number, h: number) => new Map([[color, row(x, y, w, h)]]);
    const { canvas, strips } = make(1);
    expect(strips.draw(one('rgba(0, 0, 0, 0.5)', 0, 0, 10, 17), place(strips, 1))).toBe(false);
    expect(strips.draw(one('#123456', 0.5, 0, 10, 17), place(strips, 1))).toBe(false);
    expect(strips.draw(one('#123456', 0, 0, 10, 17), place(strips, 1, 24.5))).toBe(false);
    // Two bands that overlap: the boxes' order across them would be lost.
    expect(strips.draw(new Map([['#123456', [...row(0, 0, 3, 17), ...row(0, 10, 3, 17)]]]), place(strips, 1))).toBe(false);
    canvas.globalAlpha = 0.5;
    expect(strips.draw(one('#123456', 0, 0, 10, 17), place(strips, 1))).toBe(false);
    expect(canvas.calls).toBe(0);
    canvas.globalAlpha = 1;
    // Too few boxes: one by one.
    expect(strips.draw(new Map([['#123456', [0, 0, 10, 17]]]), place(strips, 1))).toBe(false);
    expect(canvas.calls).toBe(0);
    expect(strips.draw(one('#123456', 0, 0, 3, 17), place(strips, 1))).toBe(true);
    expect(canvas.calls).toBe(1);
    // A translucent color in a batch: every box by fillRect, the same as without strips.
    const batch = new ShapeBatch();
    for (let k = 0; k < MIN_STRIP_RECTS; k++) batch.rect('#abcdef', 4 * k, 0, 3, 17);
    batch.rect('hsl(0, 0%, 50%)', 20, 0, 10, 17);
    const fills: string[] = [];
    const recording = Object.assign(canvas, {
      fillRect(this: PixelCanvas) {
        fills.push(this.fillStyle);
      },
    });
    batch.flush(recording as unknown as StripTarget, '#fafafa', 4, place(strips, 1));
    expect(fills).toEqual([...Array<string>(MIN_STRIP_RECTS).fill('#abcdef'), 'hsl(0, 0%, 50%)']);
  });
});
