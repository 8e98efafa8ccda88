/**
 * A row's opaque boxes drawn as image strips instead of one fillRect each. A dense row holds
 * thousands of boxes one or two pixels wide (4,600 in a frame of the 10M capture); each fillRect
 * costs a canvas call and then its own raster. Here the boxes of each level (a band: one y and
 * height) are written as spans of colored pixels into one pixel row, the rows go to a small canvas
 * in one putImageData, and each band is one drawImage of its row stretched to the band's height,
 * without smoothing. Transparent pixels leave the canvas as it was, opaque ones replace it: the
 * same pixels as the fillRects, as long as every box edge lies on a device pixel, every color is
 * opaque and bands do not overlap; otherwise `draw` declines and the boxes are drawn one by one.
 */
import type { Canvas2D } from '../canvas2d.ts';
import type { CssPx } from '../units.ts';

/** The context the strips are drawn on, with what they need beyond the timeline's `Canvas2D`. */
export type StripTarget = Canvas2D & Pick<CanvasRenderingContext2D, 'drawImage' | 'imageSmoothingEnabled'>;

/** A canvas to hold the strips: an OffscreenCanvas or a detached canvas element. */
export interface StripCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { putImageData(image: ImageData, dx: number, dy: number): void; isContextLost?(): boolean } | null;
}

/** Where a row's boxes go: its top on the canvas (CSS px), the frame's pixel ratio and width. */
export interface StripPlacement {
  strips: RectStrips;
  originYCss: CssPx;
  dpr: number;
  widthCss: CssPx;
}

/** Coordinates this close to a device pixel boundary count as on it (a fillRect there covers whole pixels). */
const ON_PIXEL = 1e-6;
/** Colors the strips can hold: '#rrggbb' (opaque). */
const HEX = /^#[0-9a-f]{6}$/i;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/**
 * Fewer boxes than this are drawn one by one: a strip's putImageData and drawImage have a fixed cost
 * (tens of µs) that a handful of fillRects does not reach (a sparse row, a zoomed-in frame).
 */
export const MIN_STRIP_RECTS = 48;

/** Spans up to this many pixels are written by a loop, longer ones by `fill`. */
const SHORT_SPAN = 16;

function onPixel(v: number): boolean {
  return Math.abs(v - Math.round(v)) < ON_PIXEL;
}

export class RectStrips {
  /** Per color, its pixel as a little-endian Uint32 (RGBA bytes), or -1 when the strips cannot hold it. */
  private readonly pixelOf = new Map<string, number>();
  private pixels = new Uint32Array(0);
  /** ImageData over `pixels` for a number of bands, at `imageWidth` (made once, not per row). */
  private readonly images = new Map<number, ImageData>();
  private imageWidth = 0;
  private canvas: StripCanvas | null = null;
  private readonly bandY: number[] = [];
  private readonly bandH: number[] = [];
  /** Band of each rectangle, in the order of the batch (colors in turn). */
  private rectBand = new Int32Array(0);

  constructor(
    readonly target: StripTarget,
    private readonly makeCanvas: (width: number, height: number) => StripCanvas | null,
  ) {}

  /**
   * Draws the rectangles (per color: x, y, w, h in CSS px, y from the row's top) in the order
   * fillRect would, color by color, and returns true; or draws nothing and returns false when the
   * result would not be the same pixels.
   */
  draw(rects: Map<string, number[]>, place: StripPlacement): boolean {
    // Blending a translucent fill is not what the strips do.
    if (!LITTLE_ENDIAN || this.target.globalAlpha !== 1) return false;
    const { dpr, originYCss } = place;
    const widthDev = Math.round(place.widthCss * dpr);
    const bandY = this.bandY;
    const bandH = this.bandH;
    bandY.length = 0;
    bandH.length = 0;
    let count = 0;
    for (const r of rects.values()) count += r.length >> 2;
    if (count < MIN_STRIP_RECTS) return false;
    if (this.rectBand.length < count) this.rectBand = new Int32Array(Math.max(count, 2 * this.rectBand.length));
    const rectBand = this.rectBand;
    // First pass: colors, pixel alignment and bands.
    let k = 0;
    let last = -1;
    for (const [color, r] of rects) {
      if (r.length === 0) continue;
      if (this.pixel(color) < 0) return false;
      for (let i = 0; i < r.length; i += 4, k++) {
        const x = r[i];
        const y = r[i + 1];
        const w = r[i + 2];
        const h = r[i + 3];
        if (!onPixel(x * dpr) || !onPixel((x + w) * dpr)) return false;
        if (last < 0 || bandY[last] !== y || bandH[last] !== h) {
          last = bandY.length - 1;
          while (last >= 0 && (bandY[last] !== y || bandH[last] !== h)) last--;
          if (last < 0) {
            if (!onPixel((originYCss + y) * dpr) || !onPixel((originYCss + y + h) * dpr)) return false;
            last = bandY.length;
            bandY.push(y);
            bandH.push(h);
          }
        }
        rectBand[k] = last;
      }
    }
    const bands = bandY.length;
    if (bands === 0) return true;
    // Bands drawn one after the other must not overlap: the boxes' order across bands is lost.
    const order = Array.from({ length: bands }, (_, b) => b).sort((a, b) => bandY[a] - bandY[b]);
    for (let i = 1; i < bands; i++) if (bandY[order[i - 1]] + bandH[order[i - 1]] > bandY[order[i]]) return false;

    const size = widthDev * bands;
    if (this.pixels.length < size) {
      this.pixels = new Uint32Array(Math.max(size, 2 * this.pixels.length));
      this.images.clear();
    }
    const pixels = this.pixels;
    pixels.fill(0, 0, size);
    k = 0;
    for (const [color, r] of rects) {
      if (r.length === 0) continue;
      const value = this.pixel(color);
      for (let i = 0; i < r.length; i += 4, k++) {
        const x0 = Math.max(0, Math.round(r[i] * dpr));
        const x1 = Math.min(widthDev, Math.round((r[i] + r[i + 2]) * dpr));
        if (x1 > x0) {
          const from = rectBand[k] * widthDev + x0;
          const to = from + x1 - x0;
          // Most boxes of a dense row are a pixel or two wide: a loop costs less than a call to fill.
          if (x1 - x0 <= SHORT_SPAN) for (let p = from; p < to; p++) pixels[p] = value;
          else pixels.fill(value, from, to);
        }
      }
    }
    const canvas = this.stripCanvas(widthDev, bands);
    const context = canvas?.getContext('2d');
    // A lost context would draw nothing: the boxes go one by one then.
    if (!canvas || !context || context.isContextLost?.()) return false;
    context.putImageData(this.image(widthDev, bands), 0, 0);
    const ctx = this.target;
    const smoothing = ctx.imageSmoothingEnabled;
    ctx.imageSmoothingEnabled = false;
    for (let b = 0; b < bands; b++) ctx.drawImage(canvas as CanvasImageSource, 0, b, widthDev, 1, 0, bandY[b], widthDev / dpr, bandH[b]);
    ctx.imageSmoothingEnabled = smoothing;
    for (const r of rects.values()) r.length = 0;
    return true;
  }

  private image(width: number, bands: number): ImageData {
    if (width !== this.imageWidth) {
      this.images.clear();
      this.imageWidth = width;
    }
    let image = this.images.get(bands);
    if (!image) this.images.set(bands, (image = new ImageData(new Uint8ClampedArray(this.pixels.buffer, 0, width * bands * 4), width, bands)));
    return image;
  }

  private pixel(color: string): number {
    let value = this.pixelOf.get(color);
    if (value === undefined) {
      if (HEX.test(color)) {
        const rgb = parseInt(color.slice(1), 16);
        value = (0xff000000 | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >>> 16) & 0xff)) >>> 0;
      } else {
        value = -1;
      }
      this.pixelOf.set(color, value);
    }
    return value;
  }

  /** The strip canvas, at least this large (grown, never shrunk: a resize clears and reallocates it). */
  private stripCanvas(width: number, height: number): StripCanvas | null {
    const c = this.canvas;
    if (c && c.width >= width && c.height >= height) return c;
    this.canvas = this.makeCanvas(Math.max(width, c?.width ?? 0), Math.max(height, c?.height ?? 0, 32));
    return this.canvas;
  }
}
